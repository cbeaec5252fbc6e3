package main

import (
	"path/filepath"
	"testing"

	"github.com/gctune/gctune/internal/cmdutil"
	"github.com/stretchr/testify/assert"
)

// TestMistypedStudyNameIsSuggested: a study name the database does not have names the nearest
// ones it does (issue 31: `gctune export datafram-3.1gb`), for every command that opens a
// study by name; a name near none says only that there is no such study.
func TestMistypedStudyNameIsSuggested(t *testing.T) {
	db := filepath.Join(t.TempDir(), "s.db")
	optimizeTiny(t, db, "dataframe-3.1gb", 1, "-q")
	for _, args := range [][]string{
		{"export", "datafram-3.1gb"},
		{"studies", "show", "datafram-3.1gb"},
		{"studies", "delete", "datafram-3.1gb"},
	} {
		_, errOut, code := gctune(t, append(args, "--storage", db)...)
		assert.Equal(t, cmdutil.ExitUsage, code, args)
		assert.Equal(t, `gctune: no study named "datafram-3.1gb" in `+db+" (did you mean dataframe-3.1gb?)\n", errOut, args)
	}
	_, errOut, code := gctune(t, "export", "zzz", "--storage", db)
	assert.Equal(t, cmdutil.ExitUsage, code)
	assert.Equal(t, `gctune: no study named "zzz" in `+db+"\n", errOut)
}
