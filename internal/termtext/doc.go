// Package termtext holds the few rules for text written to a terminal that the commands and the
// packages that render their text share: a name quoted only when it needs it (Quote), a string
// with its control characters escaped (Safe), and the padding of a table's cells to a width in
// runes (PadLeft, PadRight).
package termtext
