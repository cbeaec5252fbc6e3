// Package report builds gctune report's page: Build gathers what it shows (the study's trials,
// the workloads' lifetime analysis, how to apply the configuration, the measured runs, and
// package diagnose's diagnosis, sweeps, landscape and re-simulated runs), Figures draws it with
// gonum/plot, and Render writes one self-contained HTML file. The diagnosis itself, and
// gctune explain's text, are package diagnose's; report imports it, never the reverse.
package report
