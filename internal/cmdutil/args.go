package cmdutil

import (
	"fmt"
	"strings"

	"github.com/spf13/cobra"
)

// UnknownCommand is the UsageError for a command name cmd does not have, with the names within
// two edits of it (or starting with it): "optimze" → optimize.
func UnknownCommand(cmd *cobra.Command, name string) error {
	if cmd.SuggestionsMinimumDistance <= 0 {
		cmd.SuggestionsMinimumDistance = 2
	}
	msg := fmt.Sprintf("unknown command %q for %q", name, cmd.CommandPath())
	if s := cmd.SuggestionsFor(name); len(s) > 0 {
		msg += fmt.Sprintf(" (did you mean %s?)", strings.Join(s, ", "))
	}
	return Usagef("%s; run '%s --help' for the commands", msg, cmd.CommandPath())
}

// NoArgs is a cobra.PositionalArgs that refuses any argument in one line: an unknown command
// when cmd has subcommands, else the argument it does not take.
func NoArgs(cmd *cobra.Command, args []string) error {
	if len(args) > 0 && cmd.HasAvailableSubCommands() {
		return UnknownCommand(cmd, args[0])
	}
	if len(args) > 0 {
		return Usagef("%s takes no arguments, got %q (see %s --help)", cmd.CommandPath(), args[0], cmd.CommandPath())
	}
	return nil
}

// ExactArgs is a cobra.PositionalArgs that wants n arguments, naming them from cmd's Use line
// when the count is wrong.
func ExactArgs(n int) cobra.PositionalArgs {
	return func(cmd *cobra.Command, args []string) error {
		if len(args) != n {
			return Usagef("%s wants %d argument%s (%s), got %d (see %s --help)", cmd.CommandPath(), n, plural(n), argNames(cmd), len(args), cmd.CommandPath())
		}
		return nil
	}
}

// argNames is the argument part of cmd's Use line ("STUDY").
func argNames(cmd *cobra.Command) string {
	_, names, _ := strings.Cut(cmd.Use, " ")
	return names
}

// plural is "s" unless n is 1.
func plural(n int) string {
	if n == 1 {
		return ""
	}
	return "s"
}
