package cmdutil

import (
	"errors"
	"fmt"
	"strconv"
	"strings"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"github.com/gctune/gctune/export"
	"github.com/gctune/gctune/internal/suggest"
)

// FlagError turns an error of the flag parser into one line in gctune's words: the flag and
// value as typed and what is wrong with them ("--trials abc: not a whole number"), with the
// flags an unknown one may have meant, and where help is. Go's parser messages
// (strconv.ParseInt: ...) never reach the user. It is the root command's flag error function
// (cobra.Command.SetFlagErrorFunc).
func FlagError(c *cobra.Command, err error) error {
	return Usagef("%s (see %s --help)", FlagErrorText(c, err), c.CommandPath())
}

// FlagErrorText is FlagError's message without the help pointer.
func FlagErrorText(c *cobra.Command, err error) string {
	var (
		notExist *pflag.NotExistError
		required *pflag.ValueRequiredError
		invalid  *pflag.InvalidValueError
		syntax   *pflag.InvalidSyntaxError
	)
	switch {
	case errors.As(err, &notExist):
		name := notExist.GetSpecifiedName()
		if notExist.GetSpecifiedShortnames() != "" {
			return fmt.Sprintf("unknown flag -%s", name)
		}
		return "unknown flag --" + name + suggest.DidYouMean(SuggestFlags(c, name), nil)
	case errors.As(err, &required):
		return fmt.Sprintf("--%s needs a value", required.GetFlag().Name)
	case errors.As(err, &invalid):
		f := invalid.GetFlag()
		return fmt.Sprintf("--%s %s: %s", f.Name, export.ShellQuote(invalid.GetValue()), flagValueWant(f, errors.Unwrap(invalid)))
	case errors.As(err, &syntax):
		return fmt.Sprintf("bad flag syntax %s", syntax.GetSpecifiedFlag())
	}
	return err.Error()
}

// flagValueWant says what a flag's value must be, from its type: the parser's own reason only
// for a value type gctune defines (whose errors are gctune's words already). A number too
// large (or too small) for its type is said to be out of range, not "not a number".
func flagValueWant(f *pflag.Flag, cause error) string {
	if errors.Is(cause, strconv.ErrRange) {
		return "out of range (" + flagRange(f.Value.Type()) + ")"
	}
	switch f.Value.Type() {
	case "int", "int8", "int16", "int32", "int64":
		return "not a whole number"
	case "uint", "uint8", "uint16", "uint32", "uint64":
		return "not a whole number ≥ 0"
	case "float32", "float64":
		return "not a number"
	case "bool":
		return "not true or false (write --" + f.Name + "=false to turn it off)"
	case "duration":
		return "not a duration (for example 90s, 5m or 1h30m)"
	}
	if cause == nil {
		return "not a valid value"
	}
	return cause.Error()
}

// flagRange says which numbers a numeric flag's type holds.
func flagRange(typ string) string {
	switch typ {
	case "float32":
		return "a number up to 3.4e38 in magnitude"
	case "float64":
		return "a number up to 1.8e308 in magnitude"
	case "uint", "uint64":
		return "a whole number from 0 to 18446744073709551615"
	case "int", "int64":
		return "a whole number from -9223372036854775808 to 9223372036854775807"
	}
	return "too large or too small for a " + typ
}

// SuggestFlags lists the flags of c (its own and inherited, hidden ones left out) nearest to
// name (suggest.Nearest), as "--name".
func SuggestFlags(c *cobra.Command, name string) []string {
	var flags []string
	visit := func(f *pflag.Flag) {
		if !f.Hidden {
			flags = append(flags, f.Name)
		}
	}
	c.Flags().VisitAll(visit)
	c.InheritedFlags().VisitAll(visit)
	near := suggest.Nearest(strings.ToLower(name), flags)
	for i, f := range near {
		near[i] = "--" + f
	}
	return near
}
