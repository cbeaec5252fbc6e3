package trialstore

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
)

// Where the study database is when the configuration does not name one. Every front end that
// opens "the default study database" resolves it here, so that a command line, a web page or
// a Pharo client find the same file.

// DataPath returns the default study database in the user's data folder:
// $XDG_DATA_HOME/gctune/gctune.db when XDG_DATA_HOME is an absolute path (the XDG Base
// Directory rules ignore a relative one), else $HOME/.local/share/gctune/gctune.db. ok is
// false when neither variable gives a folder.
func DataPath() (path string, ok bool) {
	if d := os.Getenv("XDG_DATA_HOME"); d != "" && filepath.IsAbs(d) {
		return filepath.Join(d, "gctune", DefaultPath), true
	}
	if h := os.Getenv("HOME"); h != "" && filepath.IsAbs(h) {
		return filepath.Join(h, ".local", "share", "gctune", DefaultPath), true
	}
	return "", false
}

// Resolve returns the study database to use when the configuration names storage (empty: not
// named). A named database is used as named. Otherwise ./gctune.db (DefaultPath) when the
// working folder has one (in any form: a link, or something that is no database, is then
// reported as such by Open), else the user's data folder (DataPath), else ./gctune.db.
func Resolve(storage string) string {
	if storage != "" {
		return storage
	}
	if _, err := os.Lstat(DefaultPath); err == nil || !errors.Is(err, fs.ErrNotExist) {
		return DefaultPath
	}
	if p, ok := DataPath(); ok {
		return p
	}
	return DefaultPath
}

// MakeDataFolder creates the folder of url when url is the default database in the user's
// data folder (DataPath) and the folder does not exist yet (mode 0700, as XDG asks): a writing
// command creates the database there on first use. Any other folder must exist, and is left
// alone. The error names the folder.
func MakeDataFolder(url string) error {
	p, ok := DataPath()
	if !ok || url != p {
		return nil
	}
	dir := filepath.Dir(p)
	if _, err := os.Stat(dir); err == nil {
		return nil
	}
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return fmt.Errorf("study database folder %s: %w", dir, err)
	}
	return nil
}

// SQLiteFile is the SQLite file a storage value names: DefaultPath for "", the path of a
// sqlite: or sqlite:// URL or a plain path; "" for PostgreSQL or another URL (Open refuses
// those it does not know).
func SQLiteFile(storage string) string {
	lower := strings.ToLower(storage)
	switch {
	case storage == "":
		return DefaultPath
	case strings.HasPrefix(lower, "sqlite://"):
		return storage[len("sqlite://"):]
	case strings.HasPrefix(lower, "sqlite:"):
		return storage[len("sqlite:"):]
	case strings.Contains(storage, "://"):
		return ""
	}
	return storage
}

// DisplayPath is the study database as a command names it to the user: a SQLite file by
// absolute path (so it can be found from any folder), a URL as it is (already redacted).
func DisplayPath(url string, sqlite bool) string {
	if !sqlite {
		return url
	}
	if abs, err := filepath.Abs(url); err == nil {
		return abs
	}
	return url
}
