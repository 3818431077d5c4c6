# SPDX-License-Identifier: GPL-2.0
# Goodput as % of the ceiling, by method (clusters) and profile (bars).
# Called by bench/run: gnuplot -e "datafile=...; outfile=...; ncol=...; title=..." plot.gp
set terminal pngcairo size 1100,560 noenhanced font ",10"
set output outfile
set title title
set style data histograms
set style histogram clustered gap 1
set style fill solid 0.85 border -1
set boxwidth 0.9
set ylabel "goodput, % of ceiling"
set yrange [0:110]
set grid ytics
set key outside right top
set xtics rotate by -20 scale 0
plot for [c=2:ncol] datafile using c:xtic(1) title columnheader(c)
