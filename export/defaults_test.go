package export

import (
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/gctune/gctune/heapsim"
)

// TestDefaultsScript: gctune verify's script for the defaults sets the runtime parameters to
// the VM's values and names the launch flag and Pharo's own survivors in its comment.
func TestDefaultsScript(t *testing.T) {
	golden(t, "verify-defaults.st", []byte(DefaultsScript(heapsim.DefaultParams())))

	// Another VM's values are the ones set.
	vm := heapsim.DefaultParams()
	vm.FullGCRatio = 0.5
	vm.GrowthHeadroomBytes = 32 << 20
	s := DefaultsScript(vm)
	assert.Contains(t, s, "Smalltalk vm parameterAt: 25 put: 33554432. \"growth headroom (VM parameter 25)\"\n")
	assert.Contains(t, s, "Smalltalk vm parameterAt: 55 put: 0.5. \"full GC ratio (VM parameter 55)\"\n")
	assert.NotContains(t, s, "parameterAt: 6 ")
}
