package main

import (
	"strings"
	"testing"

	"github.com/gctune/gctune/internal/buildinfo"
	"github.com/gctune/gctune/internal/cmdutil"
	"github.com/spf13/cobra"
	"github.com/stretchr/testify/assert"
)

// TestEmptyEnumFlagsRefused: every enumeration flag of every command refuses the empty value
// (and any value outside its table) with one line listing the values, before the command runs.
func TestEmptyEnumFlagsRefused(t *testing.T) {
	root := NewRootCmd(buildinfo.Build{})
	tables := cmdutil.EnumFlagValues()
	checked := map[string]bool{}
	cmdutil.Walk(root, func(c *cobra.Command) {
		path := strings.Fields(c.CommandPath())[1:]
		for name, values := range tables {
			if c.Flags().Lookup(name) == nil || !c.Runnable() {
				continue
			}
			for _, value := range []string{"", " ", "nope"} {
				want := "--" + name + " "
				found := false
				// The arguments are checked first: try the counts a command may want.
				for _, args := range [][]string{{"x"}, {}, {"x", "y"}} {
					line := append(append(append([]string{}, path...), args...), "--"+name, value)
					out, errOut, code := gctune(t, line...)
					if code == cmdutil.ExitUsage && strings.HasPrefix(errOut, "gctune: "+want) {
						assert.Empty(t, out)
						assert.Contains(t, errOut, ": want "+cmdutil.OrList(values), "%v", line)
						assert.Equal(t, 1, strings.Count(errOut, "\n"))
						found = true
						break
					}
				}
				assert.True(t, found, "%s --%s %q is not refused", c.CommandPath(), name, value)
			}
			checked[name] = true
		}
	})
	for name := range tables {
		assert.True(t, checked[name], "no command has --%s", name)
	}
	for _, name := range []string{"rebuild", "clock", "aggregate", "sampler", "format", "scale"} {
		assert.Contains(t, tables, name)
	}
}

// TestEnumFlagsAcceptTheirValues: each value of each table passes the check (case-insensitive,
// as the parsers read them).
func TestEnumFlagsAcceptTheirValues(t *testing.T) {
	root := NewRootCmd(buildinfo.Build{})
	cmdutil.Walk(root, func(c *cobra.Command) {
		for name, values := range cmdutil.EnumFlagValues() {
			f := c.Flags().Lookup(name)
			if f == nil {
				continue
			}
			for _, v := range values {
				assert.NoError(t, f.Value.Set(strings.ToUpper(v)))
				f.Changed = true
				assert.NoError(t, cmdutil.CheckEnumFlags(c), "%s --%s %s", c.CommandPath(), name, v)
			}
		}
	})
}

// TestEmptyRebuildInConfigRefused: the config key is checked as the flag is.
func TestEmptyRebuildInConfigRefused(t *testing.T) {
	path := writeFile(t, "c.yaml", "lifetimes:\n  rebuild: \"\"\n")
	_, errOut, code := gctune(t, "lifetimes", "testdata/tiny.yaml", "--config", path)
	assert.Equal(t, cmdutil.ExitUsage, code)
	assert.Equal(t, `gctune: config: lifetimes.rebuild = "" (from `+path+`): must be auto, short, long, stored or off`+"\n", errOut)
}
