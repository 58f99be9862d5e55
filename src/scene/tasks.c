/* The scene's loops on its job system: hedra's pool (pool.h) by default, else the caller's
 * callbacks (hd_task_callbacks). The loop bodies are hdi_pool_fn in both cases; a caller's range
 * reaches them through a trampoline, so that step.c and sync.c know one way to run a loop. */
#include "scene/internal.h"

/* A loop handed to the caller's enqueue: lives on the stack of hdi_scene_run until finish. */
typedef struct caller_loop {
    hdi_pool_fn fn;
    void *ctx;
} caller_loop;

static void run_caller_range(int begin, int end, int worker, void *task_ctx)
{
    const caller_loop *loop = task_ctx;
    loop->fn(loop->ctx, worker, begin, end);
}

int hdi_scene_threads(const hd_scene *s)
{
    return s->pool != NULL ? hdi_pool_threads(s->pool) : s->tasks.worker_count;
}

int hdi_scene_chunk(const hd_scene *s, int count, int least, int most)
{
    return hdi_pool_chunk_for(hdi_scene_threads(s), count, least, most);
}

/* The caller's job over [0, count): enqueued, lead (when not NULL) run meanwhile on this
 * thread, then finished. A loop of one chunk runs here as worker 0, as on hedra's pool. */
static void run_on_caller(hd_scene *s, void (*lead)(void *), void *lead_ctx, hdi_pool_fn fn,
                          void *ctx, int count, int chunk)
{
    if (count <= chunk) {
        if (lead != NULL) {
            lead(lead_ctx);
        }
        if (count > 0) {
            fn(ctx, 0, 0, count);
        }
        return;
    }
    caller_loop loop = {fn, ctx};
    void *handle = s->tasks.enqueue(run_caller_range, &loop, count, chunk, s->tasks.user);
    if (lead != NULL) {
        lead(lead_ctx);
    }
    s->tasks.finish(handle, s->tasks.user);
}

void hdi_scene_run(hd_scene *s, hdi_pool_fn fn, void *ctx, int count, int chunk)
{
    if (s->pool != NULL) {
        hdi_pool_run(s->pool, fn, ctx, count, chunk);
    } else {
        run_on_caller(s, NULL, NULL, fn, ctx, count, chunk < 1 ? 1 : chunk);
    }
}

void hdi_scene_run_beside(hd_scene *s, void (*lead)(void *), void *lead_ctx, hdi_pool_fn fn,
                          void *ctx, int count, int chunk)
{
    if (s->pool != NULL) {
        hdi_pool_run_beside(s->pool, lead, lead_ctx, fn, ctx, count, chunk);
    } else {
        run_on_caller(s, lead, lead_ctx, fn, ctx, count, chunk < 1 ? 1 : chunk);
    }
}

void hdi_scene_wake(hd_scene *s, int count, int chunk)
{
    if (s->pool != NULL) {
        hdi_pool_wake(s->pool, count, chunk);
    }
}
