package cmdutil

import (
	"testing"

	"github.com/spf13/cobra"
	"github.com/stretchr/testify/assert"
)

// TestArgs: one line naming the command, what it wants and where help is.
func TestArgs(t *testing.T) {
	root := &cobra.Command{Use: "gctune"}
	export := &cobra.Command{Use: "export STUDY", Run: func(*cobra.Command, []string) {}}
	optimize := &cobra.Command{Use: "optimize", Run: func(*cobra.Command, []string) {}}
	root.AddCommand(export, optimize)
	assert.NoError(t, ExactArgs(1)(export, []string{"s"}))
	assert.Equal(t, "gctune export wants 1 argument (STUDY), got 0 (see gctune export --help)", ExactArgs(1)(export, nil).Error())
	assert.Equal(t, "gctune export wants 2 arguments (STUDY), got 1 (see gctune export --help)", ExactArgs(2)(export, []string{"s"}).Error())
	assert.NoError(t, NoArgs(optimize, nil))
	assert.Equal(t, `gctune optimize takes no arguments, got "x" (see gctune optimize --help)`, NoArgs(optimize, []string{"x"}).Error())
	err := NoArgs(root, []string{"optimze"})
	assert.True(t, IsUsage(err))
	assert.Equal(t, `unknown command "optimze" for "gctune" (did you mean optimize?); run 'gctune --help' for the commands`, err.Error())
}
