package config

import (
	"errors"
	"io/fs"
	"os"
)

// DefaultFile is the configuration file read from the working directory when no file is
// named. It is not config.yaml: a project folder's config.yaml usually belongs to another
// program, and gctune must not fail on it ("unknown key server.port").
const DefaultFile = "gctune.yaml"

// MaxFileBytes caps a configuration file (real ones are a few kilobytes); a larger or endless
// one (/dev/zero) is refused after MaxFileBytes+1 bytes.
const MaxFileBytes = 16 << 20

// fileSource returns the configuration file to read: the one named, else ./gctune.yaml when it
// is a regular file, else "" (the built-in defaults). A named directory, or a ./gctune.yaml
// that is no regular file, is a *LoadError.
func fileSource(named string) (string, error) {
	if named != "" {
		if st, err := os.Stat(named); err == nil && st.IsDir() {
			return "", loadErrorf("config %s: is a directory", named)
		}
		return named, nil
	}
	st, err := os.Stat(DefaultFile)
	switch {
	case err == nil && st.Mode().IsRegular():
		return DefaultFile, nil
	case err == nil:
		return "", loadErrorf("config %s: not a regular file", DefaultFile)
	case errors.Is(err, fs.ErrNotExist):
		return "", nil
	default:
		return "", loadErrorf("config %s: %w", DefaultFile, err)
	}
}
