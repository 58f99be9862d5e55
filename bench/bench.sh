#!/usr/bin/env bash
# The benchmark's one entry point: a table of commands, each a script of bench/tools/ that builds
# what it needs in Release (bench/tools/lib.sh) and writes CSV, tables and plots to bench/out/.
# usage: bash bench/bench.sh                 lists the commands
#        bash bench/bench.sh COMMAND [ARGS]  runs one (ARGS as the command's usage line says)
# bench/run.sh is `bench.sh pairs`, bench/run_scene.sh `bench.sh scene`. Layout: common/ (the
# workloads, Qhull hulls, host steal time), pairs/ (hedra_bench: the pair experiments),
# scene/ (hedra_bench_scene, the scene generator, the cores probe), features/ (rounded shapes,
# compounds, time of impact, rays against Bullet and FCL), peers/ (libccd, Bullet, FCL,
# GLPK behind one interface), tools/ (these commands). docs/BENCHMARKS.md has the results.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)

# name | script in tools/ | what it does
commands=(
  "pairs|pairs.sh|[--docs] [--quick|--full] [--only fig8,...]: the pair experiments (CD-Dual section 5) against the peers, plots"
  "scene|scene.sh|[--docs] [--sizes 1000,...]: scenes of 1 000 to 100 000 bodies against Bullet's and FCL's worlds"
  "python|python.sh|[python_bench.py options]: the Python package's cost over hd_collide from C"
  "planner|planner.sh|[planner_bench.py options]: the path-planning example, hedra's Jacobians against finite differences"
  "plot|plot.sh|[OUT_DIR]: the PNG plots of a run's CSV files (gnuplot)"
  "prims|features.sh prims|[--docs] [--placements K]: sphere, capsule, box against hulls (n = 12, 100, 1000) against FCL and Bullet"
  "compound|features.sh compound|[--docs] [--frames F] [--runs R]: hedra's scene of 1000 compound bodies of 8 pieces against Bullet's btCompoundShape world"
  "toi|features.sh toi|[--docs] [--motions M]: time of impact of rotating hulls against FCL continuousCollide and Bullet's casts"
  "rays|features.sh rays|[--docs] [--rays R]: hd_scene_raycast on 10 000 bodies against Bullet's rayTest"
  "profile|profile.sh|[N ...]: callgrind instructions per query of GJK and CD-Dual, per gap class"
  "profile-depth|profile_depth.sh|[N ...]: callgrind instructions per penetration-depth query, hedra and the peers"
  "profile-small|profile_small.sh|[N] [ROUNDS]: small n against libccd: instructions, code lines, medians"
  "small|small.sh|[KERNEL ...]: n = 8 (boxes) to 1000 against libccd per scan kernel: cold and warm medians, instructions"
  "headline|headline.py|[--check] [DOC]: docs/BENCHMARKS.md's headline tables copied from the generated ones"
)

list() {
  echo "usage: bash bench/bench.sh COMMAND [ARGS]"
  echo
  local entry name script what
  for entry in "${commands[@]}"; do
    IFS='|' read -r name script what <<<"$entry"
    printf '  %-14s %s\n' "$name" "$what"
  done
}

[ $# -eq 0 ] && { list; exit 0; }
command=$1
shift
for entry in "${commands[@]}"; do
  IFS='|' read -r name script what <<<"$entry"
  if [ "$name" = "$command" ]; then
    read -r -a words <<<"$script" # the script, then fixed arguments
    case "${words[0]}" in
      *.py) exec /usr/bin/python3 "$here/tools/${words[0]}" "${words[@]:1}" "$@" ;;
      *) exec bash "$here/tools/${words[0]}" "${words[@]:1}" "$@" ;;
    esac
  fi
done
echo "bench.sh: unknown command '$command'" >&2
list >&2
exit 2
