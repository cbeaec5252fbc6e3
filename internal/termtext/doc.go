// Package termtext holds the few rules for text written to a terminal that the commands and
// the packages that render their text share (numbers are internal/numfmt's): a name quoted on
// one line only when it needs it (Quote), a string with what a terminal would act on escaped
// (Safe), a word quoted for a POSIX shell (Shell), the padding of a table's cells to a width
// in runes, where text/tabwriter counts bytes (PadRight, PadLeft), and a share drawn as a bar
// of eighth cells (Bar). It holds no state and imports nothing of gctune's.
package termtext
