package main

import (
	"strings"
	"testing"

	"github.com/gctune/gctune/internal/cmdutil"
	"github.com/stretchr/testify/assert"
)

// TestStorageWithLeadingSpaceNotEchoed: a storage URL with white space or anything else before
// its scheme is refused without its password, by every command and from the environment
// (issue 35: export s --storage ' postgres://u:SECRET@127.0.0.1:1/db' echoed SECRET).
func TestStorageWithLeadingSpaceNotEchoed(t *testing.T) {
	for _, storage := range []string{
		" postgres://u:SECRET@127.0.0.1:1/db",
		"\tpostgresql://u:SECRET@127.0.0.1:1/db",
		"x mysql://u:SE CRET@127.0.0.1:1/db",
	} {
		for _, args := range [][]string{{"export", "s"}, {"studies", "list"}, {"report", "s"}, {"worker", "--study", "s"}} {
			_, errOut, code := gctune(t, append(args, "--storage", storage)...)
			assert.Equal(t, cmdutil.ExitUsage, code, "%v %q: %s", args, storage, errOut)
			assert.NotContains(t, errOut, "SECRET", args)
			assert.NotContains(t, errOut, "CRET", args)
			assert.Equal(t, 1, strings.Count(errOut, "\n"), errOut)
		}
		withEnv(t, []string{"GCTUNE_STORAGE=" + storage}, func() {
			_, errOut, code := gctune(t, "studies", "list")
			assert.Equal(t, cmdutil.ExitUsage, code, errOut)
			assert.NotContains(t, errOut, "CRET")
		})
	}
}
