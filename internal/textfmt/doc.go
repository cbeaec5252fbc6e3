// Package textfmt writes the text a terminal shows besides numbers (those are
// internal/numfmt's): a name quoted on one line (Quote), a message with what a terminal would
// act on escaped (TerminalSafe), and the cells of hand-aligned tables (PadRight, PadLeft, Bar),
// which count runes where text/tabwriter counts bytes. It holds no state and imports nothing
// of gctune's.
package textfmt
