package cmdutil

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/spf13/cobra"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestCompleteWorkloads: bundled names by prefix, and the profile files and folders the prefix
// leads to (other files left out); a folder keeps the shell from adding a space.
func TestCompleteWorkloads(t *testing.T) {
	got, directive := CompleteWorkloads("dataframe-")
	assert.Equal(t, []string{"dataframe-1.6gb", "dataframe-3.1gb", "dataframe-500mb"}, got)
	assert.Equal(t, cobra.ShellCompDirectiveNoFileComp, directive)

	dir := t.TempDir()
	for _, name := range []string{"a.csv", "a.YAML", "a.txt", "a[1].gcprof"} {
		require.NoError(t, os.WriteFile(filepath.Join(dir, name), nil, 0o644))
	}
	require.NoError(t, os.Mkdir(filepath.Join(dir, "a-dir"), 0o755))
	got, directive = CompleteWorkloads(filepath.Join(dir, "a"))
	assert.Equal(t, []string{filepath.Join(dir, "a-dir") + string(filepath.Separator), filepath.Join(dir, "a.YAML"),
		filepath.Join(dir, "a.csv"), filepath.Join(dir, "a[1].gcprof")}, got)
	assert.Equal(t, cobra.ShellCompDirectiveNoFileComp|cobra.ShellCompDirectiveNoSpace, directive)
	got, _ = CompleteWorkloads(filepath.Join(dir, "a["))
	assert.Equal(t, []string{filepath.Join(dir, "a[1].gcprof")}, got, "glob characters are literal")
}

// TestCompleteStudiesMissingDatabase: a database that does not exist completes nothing and is
// not created.
func TestCompleteStudiesMissingDatabase(t *testing.T) {
	db := filepath.Join(t.TempDir(), "missing.db")
	assert.Empty(t, CompleteStudies(db, ""))
	assert.NoFileExists(t, db)
}

// TestEnumFlagCompletions: a command's enumeration flags complete from their table, and Walk
// visits every command.
func TestEnumFlagCompletions(t *testing.T) {
	root := &cobra.Command{Use: "gctune"}
	export := &cobra.Command{Use: "export", Run: func(*cobra.Command, []string) {}}
	export.Flags().String("format", "st", "")
	root.AddCommand(export)
	var seen []string
	Walk(root, func(c *cobra.Command) { seen = append(seen, c.Name()); EnumFlagCompletions(c) })
	assert.Equal(t, []string{"gctune", "export"}, seen)
	f, ok := export.GetFlagCompletionFunc("format")
	require.True(t, ok)
	got, directive := f(export, nil, "J")
	assert.Equal(t, []string{"json"}, got)
	assert.Equal(t, cobra.ShellCompDirectiveNoFileComp, directive)
}
