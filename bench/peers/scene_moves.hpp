// A frame's moves held in a peer library's own types (scene_peers.h, `prepare`): the objects to
// move and their poses, converted before the benchmark's clock starts, as an application would
// hold them.
#ifndef HD_BENCH_SCENE_MOVES_HPP
#define HD_BENCH_SCENE_MOVES_HPP

#include <memory>
#include <vector>

#include "peers/scene_peers.h"

template <class Object, class Pose, class PoseAlloc = std::allocator<Pose>> struct SceneMoves {
    std::vector<Object *> objects;
    std::vector<Pose, PoseAlloc> poses;

    // bodies[i] of all (the world's objects, owned) to take convert(&in[i]); 0, or -1 when memory
    // ran out.
    template <class Owned, class Convert>
    int prepare(const std::vector<Owned> &all, int count, const int *bodies,
                const hd_bench_pose *in, Convert convert)
    {
        try {
            objects.clear();
            poses.clear();
            for (int i = 0; i < count; ++i) {
                objects.push_back(all[bodies[i]].get());
                poses.push_back(convert(&in[i]));
            }
        } catch (...) {
            return -1;
        }
        return 0;
    }
};

#endif
