// Package numfmt holds the number formats shared by gctune's packages: rounding to significant
// digits and the compact percentage used for lifetime-histogram edges.
package numfmt
