package cmdutil

import (
	"testing"

	"github.com/spf13/cobra"
	"github.com/stretchr/testify/assert"
)

// flagCmd is a command with flags of each kind FlagErrorText words.
func flagCmd() *cobra.Command {
	c := &cobra.Command{Use: "optimize", Run: func(*cobra.Command, []string) {}}
	c.Flags().Int("trials", 0, "")
	c.Flags().Uint64("seed", 0, "")
	c.Flags().Float64("tolerance", 0, "")
	c.Flags().Bool("quiet", false, "")
	c.Flags().Duration("timeout", 0, "")
	c.Flags().String("study", "", "")
	c.Flags().String("secret", "", "")
	_ = c.Flags().MarkHidden("secret")
	return c
}

// TestFlagErrorText: the parser's errors in gctune's words, from a real parse.
func TestFlagErrorText(t *testing.T) {
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"--trials", "abc"}, "--trials abc: not a whole number"},
		{[]string{"--trials", "99999999999999999999"}, "--trials 99999999999999999999: out of range (a whole number from -9223372036854775808 to 9223372036854775807)"},
		{[]string{"--seed", "-1"}, "--seed -1: not a whole number ≥ 0"},
		{[]string{"--tolerance", "x y"}, "--tolerance 'x y': not a number"},
		{[]string{"--quiet=maybe"}, "--quiet maybe: not true or false (write --quiet=false to turn it off)"},
		{[]string{"--timeout", "5"}, "--timeout 5: not a duration (for example 90s, 5m or 1h30m)"},
		{[]string{"--trails", "3"}, "unknown flag --trails (did you mean --trials?)"},
		{[]string{"--secre", "3"}, "unknown flag --secre"},
		{[]string{"-x"}, "unknown flag -x"},
		{[]string{"--trials"}, "--trials needs a value"},
	} {
		cmd := flagCmd()
		err := cmd.ParseFlags(c.args)
		if assert.Error(t, err, "%v", c.args) {
			assert.Equal(t, c.want, FlagErrorText(cmd, err), "%v", c.args)
		}
	}
	cmd := flagCmd()
	err := FlagError(cmd, cmd.ParseFlags([]string{"--trials", "abc"}))
	assert.True(t, IsUsage(err))
	assert.Equal(t, "--trials abc: not a whole number (see optimize --help)", err.Error())
}

// TestEnumFlags: a value outside a flag's table, the empty one included, is refused with the
// table; one inside passes in any case.
func TestEnumFlags(t *testing.T) {
	cmd := &cobra.Command{Use: "export"}
	cmd.Flags().String("format", "st", "")
	assert.NoError(t, CheckEnumFlags(cmd), "an unchanged flag is not checked")
	assert.NoError(t, cmd.Flags().Set("format", " JSON "))
	assert.NoError(t, CheckEnumFlags(cmd))
	assert.NoError(t, cmd.Flags().Set("format", ""))
	err := CheckEnumFlags(cmd)
	assert.True(t, IsUsage(err))
	assert.Equal(t, "--format '': want st, json, yaml or flags (see export --help)", err.Error())
	assert.Equal(t, "a, b or c", OrList([]string{"a", "b", "c"}))
	assert.Equal(t, "a", OrList([]string{"a"}))
}
