// Package numfmt holds the number formats shared by gctune's packages: rounding to significant
// digits, the compact percentage used for lifetime-histogram edges, and the report page's
// formats of times, shares, speedups and counts (page.go) with their sentence forms for text
// (text.go), which the report's page and gctune explain's diagnosis both write.
package numfmt
