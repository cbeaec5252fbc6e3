// Package suggest finds the names a mistyped one may have meant, and words them: the flags of
// a command, the studies of a database, the configuration's keys and GCTUNE_ variables are
// suggested alike ("unknown flag --trails (did you mean --trials?)").
package suggest
