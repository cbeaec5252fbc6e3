package main

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
)

// localStorage is the study database gctune used in the working folder before it kept studies
// in the user's data folder: still used when it exists there.
const localStorage = "gctune.db"

// dataStoragePath returns the default study database in the user's data folder:
// $XDG_DATA_HOME/gctune/gctune.db when XDG_DATA_HOME is an absolute path (the XDG Base
// Directory rules ignore a relative one), else $HOME/.local/share/gctune/gctune.db. ok is
// false when neither variable gives a folder.
func dataStoragePath() (path string, ok bool) {
	if d := os.Getenv("XDG_DATA_HOME"); d != "" && filepath.IsAbs(d) {
		return filepath.Join(d, "gctune", localStorage), true
	}
	if h := os.Getenv("HOME"); h != "" && filepath.IsAbs(h) {
		return filepath.Join(h, ".local", "share", "gctune", localStorage), true
	}
	return "", false
}

// resolveStorage returns the study database a command uses when the configuration names
// storage (empty: not named). A named database is used as named. Otherwise ./gctune.db when
// the working folder has one (in any form: a link, or something that is no database, is then
// reported as such), else the user's data folder (dataStoragePath), else ./gctune.db.
func resolveStorage(storage string) string {
	if storage != "" {
		return storage
	}
	if _, err := os.Lstat(localStorage); err == nil || !errors.Is(err, fs.ErrNotExist) {
		return localStorage
	}
	if p, ok := dataStoragePath(); ok {
		return p
	}
	return localStorage
}

// makeDataFolder creates the folder of url when url is the default database in the user's
// data folder and the folder does not exist yet (mode 0700, as XDG asks): a writing command
// creates the database there on first use. Any other folder must exist.
func makeDataFolder(url string) error {
	p, ok := dataStoragePath()
	if !ok || url != p {
		return nil
	}
	dir := filepath.Dir(p)
	if _, err := os.Stat(dir); err == nil {
		return nil
	}
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return usageErrorf("study database folder %s: %w", dir, err)
	}
	return nil
}

// storagePathForDisplay is the study database as `study database:` shows it: a SQLite file
// by absolute path (so it can be found from any folder), a URL as it is (already redacted).
func storagePathForDisplay(url string, sqlite bool) string {
	if !sqlite {
		return url
	}
	if abs, err := filepath.Abs(url); err == nil {
		return abs
	}
	return url
}
