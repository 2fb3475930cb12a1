# SPDX-License-Identifier: GPL-2.0-only
#
# MB/s against message size for one group of test/bench/bench.c:
#	gnuplot -e "dat='build/bench-cipher.dat'; out='build/bench.png'" \
#		test/bench/plot.gp
# The .dat file names its rows ("#names"), its sizes ("#sizes") and where
# it was measured; each row is one index block of "bytes MB/s" lines.
# kchacha's rows are solid, the other libraries' dashed.

if (!exists("dat") || !exists("out")) {
	print "usage: gnuplot -e \"dat='...'; out='...'\" plot.gp"
	exit status 2
}
if (!exists("stamp")) stamp = ""

meta(key) = system(sprintf("sed -n 's/^#%s //p' '%s'", key, dat))
names = meta("names")
sizes = meta("sizes")
ttl = meta("title")
machine = meta("machine")

if (strstrt(GPVAL_TERMINALS, "pngcairo") > 0) {
	set terminal pngcairo size 1200,760 font "Sans,11" linewidth 1.2
} else {
	set terminal png size 1200,760
}
set output out

ours(n) = n[1:8] eq "kchacha-"
size_label(b) = (b >= 1048576 && b % 1048576 == 0) ? sprintf("%d MiB", b / 1048576) : \
	(b >= 1024 && b % 1024 == 0) ? sprintf("%d KiB", b / 1024) : sprintf("%d", b)

set title sprintf("kchacha: %s\n{/*0.8 %s%s}", ttl, machine, \
	stamp eq "" ? "" : ", " . stamp)
set xlabel "message size (bytes, log scale)"
set ylabel "MB/s (10^6 bytes/s, log scale)"
set logscale x 2
set logscale y 10
set xtics () nomirror
do for [s in sizes] {
	set xtics add (size_label(s + 0) s + 0)
}
set xrange [word(sizes, 1) * 0.8 : word(sizes, words(sizes)) * 1.25]
stats dat using 2 nooutput
set yrange [STATS_min / 1.25 : STATS_max * 1.25]
set ytics (1, 2, 5, 10, 20, 50, 100, 200, 500, 1000, 2000, 5000, \
	10000, 20000, 50000, 100000)
set mytics default
set format y "%.0f"
set grid xtics ytics lt 1 lc rgb "#d8d8d8"
set key outside right top reverse Left width 1
set border 3
set ytics nomirror

dash(n) = ours(n) ? 1 : 2
width(n) = ours(n) ? 2.5 : 1.5
point(n) = ours(n) ? 7 : 6
colors = "#7b2cbf #d62728 #1f77b4 #2ca02c #e377c2 #8c564b #ff7f0e #17becf #555555 #bcbd22 #9467bd #000000"
color(i) = word(colors, (i - 1) % words(colors) + 1)

plot for [i = 1 : words(names)] dat index (i - 1) using 1:2 \
	with linespoints title word(names, i) \
	dashtype dash(word(names, i)) linewidth width(word(names, i)) \
	pointtype point(word(names, i)) pointsize 0.9 linecolor rgb color(i)
