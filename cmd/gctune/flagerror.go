package main

import (
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"github.com/gctune/gctune/export"
)

// flagError turns an error of the flag parser into one line in gctune's words: the flag and
// value as typed and what is wrong with them ("--trials abc: not a whole number"), with the
// flags an unknown one may have meant, and where help is. Go's parser messages
// (strconv.ParseInt: ...) never reach the user.
func flagError(c *cobra.Command, err error) error {
	return usageErrorf("%s (see %s --help)", flagErrorText(c, err), c.CommandPath())
}

// flagErrorText is flagError's message without the help pointer.
func flagErrorText(c *cobra.Command, err error) string {
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
		return "unknown flag --" + name + didYouMean(suggestFlags(c, name), nil)
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

// suggestFlags lists the flags of c (its own and inherited) nearest to name (nearestNames), as
// "--name".
func suggestFlags(c *cobra.Command, name string) []string {
	var flags []string
	visit := func(f *pflag.Flag) {
		if !f.Hidden {
			flags = append(flags, f.Name)
		}
	}
	c.Flags().VisitAll(visit)
	c.InheritedFlags().VisitAll(visit)
	near := nearestNames(strings.ToLower(name), flags)
	for i, f := range near {
		near[i] = "--" + f
	}
	return near
}

// nearestNames lists the candidates a mistyped name may have meant, sorted and each once: those
// at the smallest edit distance from name (a transposition counts one edit), if it is at most
// a third of name's length (two at most), and those that start with name when it has three
// letters or more; never name itself. Flags, study names, configuration keys and GCTUNE_ variables are suggested
// by it.
func nearestNames(name string, candidates []string) []string {
	limit := min(2, len(name)/3)
	best := limit + 1
	var near, prefixed []string
	for _, c := range candidates {
		if c == name {
			continue
		}
		if len(name) >= 3 && strings.HasPrefix(c, name) && !slices.Contains(prefixed, c) {
			prefixed = append(prefixed, c)
		}
		switch d := editDistance(name, c); {
		case d > limit:
		case d < best:
			best, near = d, []string{c}
		case d == best && !slices.Contains(near, c):
			near = append(near, c)
		}
	}
	out := prefixed
	for _, c := range near {
		if !slices.Contains(out, c) {
			out = append(out, c)
		}
	}
	slices.Sort(out)
	return out
}

// didYouMean is " (did you mean a or b?)" for the suggestions, quoted with quote when it is
// not nil, or "" when there are none.
func didYouMean(suggestions []string, quote func(string) string) string {
	if len(suggestions) == 0 {
		return ""
	}
	q := slices.Clone(suggestions)
	if quote != nil {
		for i, s := range q {
			q[i] = quote(s)
		}
	}
	return " (did you mean " + strings.Join(q, " or ") + "?)"
}

// editDistance is the optimal-string-alignment distance between a and b, by bytes: the
// insertions, deletions, substitutions and transpositions of adjacent bytes that turn a into
// b ("trails" is one from "trials").
func editDistance(a, b string) int {
	d := make([][]int, len(a)+1)
	for i := range d {
		d[i] = make([]int, len(b)+1)
		d[i][0] = i
	}
	for j := range d[0] {
		d[0][j] = j
	}
	for i := 1; i <= len(a); i++ {
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			d[i][j] = min(d[i-1][j]+1, d[i][j-1]+1, d[i-1][j-1]+cost)
			if i > 1 && j > 1 && a[i-1] == b[j-2] && a[i-2] == b[j-1] {
				d[i][j] = min(d[i][j], d[i-2][j-2]+1)
			}
		}
	}
	return d[len(a)][len(b)]
}
