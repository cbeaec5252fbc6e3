package trialstore

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestResolve: a named database as named; else ./gctune.db when there is one (even a
// dangling link), else the data folder by XDG_DATA_HOME (absolute only) or HOME, else
// ./gctune.db.
func TestResolve(t *testing.T) {
	t.Chdir(t.TempDir())
	data := t.TempDir()
	t.Setenv("XDG_DATA_HOME", data)
	t.Setenv("HOME", "/home/someone")
	assert.Equal(t, "x.db", Resolve("x.db"))
	assert.Equal(t, filepath.Join(data, "gctune", "gctune.db"), Resolve(""))
	t.Setenv("XDG_DATA_HOME", "relative")
	assert.Equal(t, "/home/someone/.local/share/gctune/gctune.db", Resolve(""))
	t.Setenv("HOME", "")
	assert.Equal(t, DefaultPath, Resolve(""))
	_, ok := DataPath()
	assert.False(t, ok)

	t.Setenv("HOME", "/home/someone")
	require.NoError(t, os.Symlink("nowhere", DefaultPath))
	assert.Equal(t, DefaultPath, Resolve(""), "a dangling link is used, and reported by Open")
}

// TestMakeDataFolder: the data folder is made (0700) for the default database only.
func TestMakeDataFolder(t *testing.T) {
	data := filepath.Join(t.TempDir(), "data")
	t.Setenv("XDG_DATA_HOME", data)
	require.NoError(t, MakeDataFolder("elsewhere.db"))
	assert.NoDirExists(t, data)
	p, ok := DataPath()
	require.True(t, ok)
	require.NoError(t, MakeDataFolder(p))
	st, err := os.Stat(filepath.Dir(p))
	require.NoError(t, err)
	assert.Equal(t, os.FileMode(0o700), st.Mode().Perm())
	require.NoError(t, MakeDataFolder(p), "an existing folder is left alone")

	file := filepath.Join(t.TempDir(), "file")
	require.NoError(t, os.WriteFile(file, nil, 0o644))
	t.Setenv("XDG_DATA_HOME", file)
	p, _ = DataPath()
	err = MakeDataFolder(p)
	require.Error(t, err)
	assert.Contains(t, err.Error(), "study database folder "+filepath.Join(file, "gctune")+": ")
}

// TestSQLiteFile: the file of each SQLite form; none for PostgreSQL.
func TestSQLiteFile(t *testing.T) {
	for in, want := range map[string]string{
		"": DefaultPath, "a.db": "a.db", "sqlite:///abs/a.db": "/abs/a.db", "SQLite://rel/a.db": "rel/a.db",
		"sqlite:a.db": "a.db", "postgres://u@h/db": "", "mysql://h/db": "",
	} {
		assert.Equal(t, want, SQLiteFile(in), in)
	}
	abs, err := filepath.Abs("a.db")
	require.NoError(t, err)
	assert.Equal(t, abs, DisplayPath("a.db", true))
	assert.Equal(t, "postgres://u:xxxxx@h/db", DisplayPath("postgres://u:xxxxx@h/db", false))
}
