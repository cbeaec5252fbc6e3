// Package stage tells a user what a long command is doing: one line per stage on standard
// error. On a terminal the line is redrawn in place with the stage's progress and elapsed
// time; in a pipe or a log each stage is one line when it starts and one when it ends, so a
// script or CI shows where the time goes without control characters.
package stage
