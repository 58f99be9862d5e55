#!/usr/bin/env bash
# Makes the PNG plots of a benchmark run from its CSV files with gnuplot (pngcairo).
# usage: bench/tools/plot.sh [OUT_DIR]   (default bench/out; reads OUT_DIR/*.csv, writes OUT_DIR/*.png)
set -euo pipefail

out=${1:-$(cd "$(dirname "$0")/.." && pwd)/out}
command -v gnuplot >/dev/null || { echo "plot.sh: gnuplot not found (apt-get install gnuplot-nox)" >&2; exit 1; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# Columns of the experiment CSVs (see bench/pairs/report.c).
C_EXP=1 C_METHOD=2 C_SHAPE=3 C_N=4 C_L=6 C_MEDIAN=9 C_P90=10 C_VFV=17 C_VVF=18 C_VEE=19 C_ERRMAX=20 C_AVAIL=22

# Gaps shown on the categorical x axis of the time-against-l plots (Figs. 8 and 9).
GAPS="-50 -20 -10 -5 -1 -0.1 -0.01 0 0.01 0.1 1 5 10 20 50"

label() {
  case $1 in
    hedra_gjk) echo "hedra GJK" ;; hedra_cddual) echo "hedra CD-Dual" ;; hedra_lp) echo "hedra LP" ;;
    hedra_dist) echo "hedra GJK distance" ;; ccd_gjk) echo "libccd GJK" ;; ccd_mpr) echo "libccd MPR" ;;
    bullet) echo "Bullet GJK" ;; bullet_dist) echo "Bullet GJK+EPA" ;; fcl) echo "FCL collide" ;;
    fcl_dist) echo "FCL distance" ;; glpk) echo "GLPK simplex" ;; *) echo "$1" ;;
  esac
}
style() {
  case $1 in
    hedra_gjk) echo "lc rgb '#1f4fd6' lw 2.5 pt 7 ps 0.8" ;;
    hedra_dist) echo "lc rgb '#1f4fd6' lw 2.5 dt 4 pt 7 ps 0.8" ;;
    hedra_cddual) echo "lc rgb '#d62728' lw 2.5 pt 5 ps 0.8" ;;
    hedra_lp) echo "lc rgb '#2ca02c' lw 2.5 pt 9 ps 0.9" ;;
    ccd_gjk) echo "lc rgb '#ff7f0e' lw 1.5 dt 2 pt 6 ps 0.7" ;;
    ccd_mpr) echo "lc rgb '#8c564b' lw 1.5 dt 2 pt 4 ps 0.7" ;;
    bullet) echo "lc rgb '#9467bd' lw 1.5 dt 3 pt 8 ps 0.7" ;;
    bullet_dist) echo "lc rgb '#9467bd' lw 1.5 dt 5 pt 9 ps 0.7" ;;
    fcl) echo "lc rgb '#555555' lw 1.5 dt 4 pt 12 ps 0.7" ;;
    fcl_dist) echo "lc rgb '#555555' lw 1.5 dt 5 pt 13 ps 0.7" ;;
    glpk) echo "lc rgb '#17becf' lw 1.5 dt 2 pt 10 ps 0.8" ;;
    *) echo "lw 1" ;;
  esac
}

# series CSV EXP METHOD FILTER_AWK -> data file "x median p90" with x the gap's index in GAPS
series_l() {
  local csv=$1 method=$2 filter=$3 f="$tmp/$RANDOM$RANDOM.dat"
  awk -F, -v m="$method" -v gaps="$GAPS" '
    BEGIN { n = split(gaps, g, " "); for (i = 1; i <= n; i++) pos[g[i] + 0] = i - 1 }
    /^#/ || $1 == "experiment" { next }
    $'$C_METHOD' == m && $'$C_AVAIL' == 1 && ('"$filter"') && (($'$C_L' + 0) in pos) {
      print pos[$'$C_L' + 0], $'$C_MEDIAN' / 1000, $'$C_P90' / 1000 }' "$csv" | sort -n >"$f"
  echo "$f"
}

xtics_gaps() {
  local s="" i=0
  for g in $GAPS; do s="$s${s:+, }\"$g\" $i"; i=$((i + 1)); done
  echo "set xtics ($s) rotate by -45 font ',8'"
}

# One panel per filter value: time (us, log) against l for the given methods.
panels_l() {
  local csv=$1 title=$2 png=$3 layout=$4 methods=$5; shift 5
  [ -f "$csv" ] || return 0
  {
    echo "set terminal pngcairo size 1500,900 font 'Sans,10'"
    echo "set output '$png'"
    echo "set multiplot layout $layout title '$title'"
    echo "set logscale y; set grid ytics mytics xtics lc rgb '#dddddd'"
    echo "set ylabel 'median time per query (us)'; set xlabel 'gap l'"
    echo "set key top right font ',8' samplen 2"
    xtics_gaps
    echo "set xrange [-0.5:14.5]"
    for panel in "$@"; do
      local name=${panel%%|*} filter=${panel#*|} plot="" any=0
      echo "set title '$name'"
      for m in $methods; do
        local f; f=$(series_l "$csv" "$m" "$filter")
        [ -s "$f" ] || continue
        any=1
        plot="$plot${plot:+, }'$f' using 1:2 with linespoints $(style "$m") title '$(label "$m")'"
      done
      if [ $any = 1 ]; then echo "plot $plot"; else echo "set label 1 'no data' at graph 0.5,0.5 center; plot NaN notitle; unset label 1"; fi
    done
    echo "unset multiplot"
  } >"$tmp/plot.gp"
  gnuplot "$tmp/plot.gp"
}

BOOL="hedra_gjk hedra_cddual ccd_gjk ccd_mpr bullet fcl"

# Fig. 8: one panel per n.
panels_l "$out/fig8.csv" "Fig. 8: time per query against the gap l, ellipsoid 200:100:100" \
  "$out/fig8.png" "2,3" "$BOOL" \
  "n = 12|\$$C_N == 12" "n = 100|\$$C_N == 100" "n = 500|\$$C_N == 500" \
  "n = 1000|\$$C_N == 1000" "n = 5000|\$$C_N == 5000"

# Fig. 9: one panel per shape.
panels_l "$out/fig9.csv" "Fig. 9: time per query against l for four shapes, n = 1000" \
  "$out/fig9.png" "2,2" "$BOOL" \
  "200:100:100|\$$C_SHAPE == \"200:100:100\"" "400:100:100|\$$C_SHAPE == \"400:100:100\"" \
  "800:100:100|\$$C_SHAPE == \"800:100:100\"" "800:200:50|\$$C_SHAPE == \"800:200:50\""

# Distance: time per n.
panels_l "$out/distance.csv" "Distance queries: time against l, 200:100:100" \
  "$out/distance.png" "2,2" "hedra_dist bullet_dist fcl_dist" \
  "n = 12|\$$C_N == 12" "n = 100|\$$C_N == 100" "n = 1000|\$$C_N == 1000" "n = 5000|\$$C_N == 5000"

# Fig. 8 under the paper's protocol (blocks of back-to-back calls).
panels_l "$out/fig8paper.csv" "Fig. 8, paper protocol: mean of back-to-back calls, ellipsoid 200:100:100" \
  "$out/fig8paper.png" "2,3" "$BOOL" \
  "n = 12|\$$C_N == 12" "n = 100|\$$C_N == 100" "n = 500|\$$C_N == 500" \
  "n = 1000|\$$C_N == 1000" "n = 5000|\$$C_N == 5000"

# LP: hedra LP against GLPK (and hedra GJK for scale).
panels_l "$out/lp.csv" "LP method: hedra LP against the GLPK simplex, 200:100:100" \
  "$out/lp.png" "1,3" "hedra_lp glpk hedra_gjk" \
  "n = 12|\$$C_N == 12" "n = 100|\$$C_N == 100" "n = 1000|\$$C_N == 1000"

# Fig. 10: CD-Dual's faces visited per procedure (mean per query), stacked, n = 1000.
if [ -f "$out/fig8.csv" ]; then
  f="$tmp/fig10.dat"
  awk -F, -v gaps="$GAPS" '
    BEGIN { n = split(gaps, g, " "); for (i = 1; i <= n; i++) pos[g[i] + 0] = i - 1 }
    /^#/ || $1 == "experiment" { next }
    $'$C_METHOD' == "hedra_cddual" && $'$C_N' == 1000 && $'$C_AVAIL' == 1 {
      print pos[$'$C_L' + 0], $'$C_L', $'$C_VFV', $'$C_VVF', $'$C_VEE', $'$C_MEDIAN' / 1000 }' \
    "$out/fig8.csv" | sort -n >"$f"
  if [ -s "$f" ]; then
    gnuplot <<EOF
set terminal pngcairo size 1000,600 font 'Sans,10'
set output '$out/fig10.png'
set title "Fig. 10: CD-Dual, faces of M visited per procedure (mean per query), n = 1000, 200:100:100"
set style data histograms
set style histogram rowstacked
set style fill solid 0.85 border -1
set boxwidth 0.75
set ylabel 'faces visited per query'
set y2label 'median time per query (us)'
set y2tics; set ytics nomirror
set xlabel 'gap l'
set key top left
set grid ytics lc rgb '#dddddd'
plot '$f' using 3:xtic(2) title 'SEARCH-FV' lc rgb '#4e79a7', \
     '' using 4 title 'SEARCH-VF' lc rgb '#f28e2b', \
     '' using 5 title 'SEARCH-EE' lc rgb '#59a14f', \
     '' using 0:6 axes x1y2 with linespoints lw 2 lc rgb '#d62728' pt 7 title 'time (right axis)'
EOF
  fi
fi

# Scaling: median time against n at l = -1 and l = +1 (log-log).
if [ -f "$out/scaling.csv" ]; then
  plot1=""; plot2=""
  for m in hedra_gjk hedra_cddual hedra_lp ccd_gjk ccd_mpr bullet fcl glpk hedra_dist bullet_dist fcl_dist; do
    for side in -1 1; do
      f="$tmp/scal_${m}_$side.dat"
      awk -F, -v m="$m" -v l="$side" '/^#/ || $1 == "experiment" { next }
        $'$C_METHOD' == m && $'$C_L' + 0 == l && $'$C_AVAIL' == 1 { print $'$C_N', $'$C_MEDIAN' / 1000 }' \
        "$out/scaling.csv" | sort -n >"$f"
      [ -s "$f" ] || continue
      line="'$f' using 1:2 with linespoints $(style "$m") title '$(label "$m")'"
      if [ "$side" = -1 ]; then plot1="$plot1${plot1:+, }$line"; else plot2="$plot2${plot2:+, }$line"; fi
    done
  done
  if [ -n "$plot1$plot2" ]; then
    gnuplot <<EOF
set terminal pngcairo size 1400,600 font 'Sans,10'
set output '$out/scaling.png'
set multiplot layout 1,2 title 'Scaling: median time per query against n, ellipsoid 200:100:100'
set logscale xy; set grid lc rgb '#dddddd'
set xlabel 'vertices per polytope (n)'; set ylabel 'median time per query (us)'
set key top left font ',8'
set title 'l = -1 (penetrating)'
plot ${plot1:-NaN notitle}
set title 'l = +1 (separated)'
plot ${plot2:-NaN notitle}
unset multiplot
EOF
  fi
fi

# Distance error against l (max over the orientations, l > 0).
if [ -f "$out/distance.csv" ]; then
  plot=""
  for m in hedra_dist bullet_dist fcl_dist; do
    for n in 100 1000; do
      f="$tmp/err_${m}_$n.dat"
      awk -F, -v m="$m" -v n="$n" '/^#/ || $1 == "experiment" { next }
        $'$C_METHOD' == m && $'$C_N' == n && $'$C_L' > 0 && $'$C_ERRMAX' != "" { e = $'$C_ERRMAX' + 0; if (e < 1e-16) e = 1e-16; print $'$C_L', e }' \
        "$out/distance.csv" | sort -g >"$f"
      [ -s "$f" ] || continue
      pt=$([ "$n" = 100 ] && echo "dt 1" || echo "dt 2")
      plot="$plot${plot:+, }'$f' using 1:2 with linespoints $(style "$m" | sed 's/dt [0-9]//') $pt title '$(label "$m"), n = $n'"
    done
  done
  if [ -n "$plot" ]; then
    gnuplot <<EOF
set terminal pngcairo size 1000,600 font 'Sans,10'
set output '$out/distance_error.png'
set title 'Distance error |d - reference| (max over orientations), separated pairs; floor 1e-16'
set logscale xy; set grid lc rgb '#dddddd'
set xlabel 'gap l'; set ylabel 'max absolute error'
set key outside right font ',8'
plot $plot
EOF
  fi
fi

# Coherence: time per frame along the motion, cold against warm.
if [ -f "$out/coherence.csv" ]; then
  plot=""
  for v in "hedra_gjk cold" "hedra_gjk warm" "hedra_cddual cold" "hedra_cddual warm" "ccd_gjk cold" "bullet cold" "fcl cold"; do
    f="$tmp/coh_${v// /_}.dat"
    # mean of the per-frame medians over bins of 10 frames, to keep the plot readable
    awk -F, -v v="$v" '/^#/ || $1 == "variant" { next } $1 == v {
        b = int($2 / 10); s[b] += $4 / 1000; l[b] += $3; c[b]++ }
      END { for (b in c) print b * 10 + 5, s[b] / c[b], l[b] / c[b] }' "$out/coherence.csv" |
      sort -n >"$f"
    [ -s "$f" ] || continue
    m=${v%% *}
    extra=$([ "${v##* }" = warm ] && echo "dt 1 lw 2" || echo "dt 2 lw 1.2")
    plot="$plot${plot:+, }'$f' using 1:2 with lines $(style "$m" | sed 's/lw [0-9.]*//; s/dt [0-9]//; s/pt [0-9]*//; s/ps [0-9.]*//') $extra title '$(label "$m") ${v##* }'"
  done
  if [ -n "$plot" ]; then
    first=$(ls "$tmp"/coh_*.dat | head -1)
    gnuplot <<EOF
set terminal pngcairo size 1200,600 font 'Sans,10'
set output '$out/coherence.png'
set title 'Frame coherence: a moving pair over 1000 frames (n = 1000), cold against warm-started (means over 10-frame bins)'
set logscale y; set grid lc rgb '#dddddd'
set xlabel 'frame'; set ylabel 'median time per query (us)'
set y2label 'gap l'; set y2tics; set ytics nomirror
set key outside right font ',8'
plot $plot, '$first' using 1:3 axes x1y2 with lines lc rgb '#bbbbbb' lw 1 title 'gap l (right)'
EOF
  fi
fi

ls -1 "$out"/*.png 2>/dev/null | sed 's/^/plot.sh: wrote /' || true # none when only experiments without plots ran (depth)
