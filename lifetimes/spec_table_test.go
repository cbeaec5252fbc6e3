package lifetimes

import (
	"math"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestSpecErrorOrderDeterministic validates a spec with several bad parameters in one
// distribution 20 times: the error reported must be the same every time (not picked by map
// iteration order), and the first bad parameter in the kind table's order.
func TestSpecErrorOrderDeterministic(t *testing.T) {
	bad := func() *Spec {
		return &Spec{
			Name:    "go",
			Classes: []ClassSpec{{Name: "A", Size: &DistSpec{Kind: "fixed", ValueBytes: 32}}},
			Phases: []PhaseSpec{{Name: "p", AllocateBytes: 1 << 20, Mix: []MixSpec{{Class: "A", Share: 1,
				Lifetime: DistSpec{Kind: "normal", MinBytes: math.Inf(1), MaxBytes: math.NaN(),
					MeanBytes: math.Inf(1), StdDevBytes: math.NaN()}}}}},
		}
	}
	const want = "lifetimes: spec phases[0].mix[0].lifetime.min: +Inf: want a finite, non-negative number"
	for range 20 {
		err := bad().Validate()
		require.Error(t, err)
		assert.Equal(t, want, err.Error())
	}
}
