package cmdutil

import (
	"testing"

	"github.com/spf13/cobra"
	"github.com/stretchr/testify/assert"
)

// TestDeclare: what a command declares is read back as declared; nothing declared reads empty.
func TestDeclare(t *testing.T) {
	c := &cobra.Command{Use: "report", Annotations: Declare(ArgsStudy, []string{"output"}, []string{"figures", "dir"})}
	assert.Equal(t, ArgsStudy, ArgsOf(c))
	assert.False(t, TakesProfiles(c))
	files, dirs := OutputsOf(c)
	assert.Equal(t, []string{"output"}, files)
	assert.Equal(t, []string{"figures", "dir"}, dirs)

	create := &cobra.Command{Use: "create", Annotations: Declare(ArgsNewStudyProfiles, nil, nil)}
	assert.True(t, TakesProfiles(create))
	assert.True(t, TakesProfiles(&cobra.Command{Annotations: Declare(ArgsProfiles, nil, nil)}))

	bare := &cobra.Command{Use: "version"}
	assert.Empty(t, ArgsOf(bare))
	files, dirs = OutputsOf(bare)
	assert.Nil(t, files)
	assert.Nil(t, dirs)
	assert.Empty(t, Declare("", nil, nil))
}
