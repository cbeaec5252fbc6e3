package main

import (
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/gctune/gctune/export"
)

// TestNearestNames: the nearest candidates within a third of the name's length, and those the
// name starts, sorted.
func TestNearestNames(t *testing.T) {
	names := []string{"dataframe-3.1gb", "dataframe-1gb", "holds-landscape", "trials"}
	assert.Equal(t, []string{"dataframe-3.1gb"}, nearestNames("datafram-3.1gb", names))
	assert.Equal(t, []string{"dataframe-1gb", "dataframe-3.1gb"}, nearestNames("dataf", names))
	assert.Equal(t, []string{"trials"}, nearestNames("trails", names))
	assert.Empty(t, nearestNames("zzz", names))
	assert.Empty(t, nearestNames("trials", names), "the name itself is no suggestion")
	assert.Equal(t, " (did you mean a or 'b c'?)", didYouMean([]string{"a", "b c"}, export.ShellQuote))
	assert.Equal(t, "", didYouMean(nil, nil))
}

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
		assert.Equal(t, exitUsage, code, args)
		assert.Equal(t, `gctune: no study named "datafram-3.1gb" in `+db+" (did you mean dataframe-3.1gb?)\n", errOut, args)
	}
	_, errOut, code := gctune(t, "export", "zzz", "--storage", db)
	assert.Equal(t, exitUsage, code)
	assert.Equal(t, `gctune: no study named "zzz" in `+db+"\n", errOut)
}
