package diagnose

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

// landscapePoints builds a landscape's points from (factor, cost, step) triples, cliffs marked
// at tol as JudgeLandscape marks them.
func landscapePoints(tol float64, pts ...[3]float64) []LandscapePoint {
	out := []LandscapePoint{{Feasible: true, Value: 1}}
	for _, p := range pts {
		out = append(out, LandscapePoint{Factor: p[0], Value: 1 + p[0], Cost: p[1], Feasible: true, Step: p[2] != 0,
			Cliff: p[1] >= tol && p[1] > 0})
	}
	return out
}

// TestLandscapeReach: the margin is placed over every point, the finer ones too, so that it never
// holds a point that costs the tolerance (issue 31: "may be 40 % lower or more" beside a
// measured cliff at −30 %, +20.8 %, drawn inside the kept margin).
func TestLandscapeReach(t *testing.T) {
	const tol = 0.01
	// The recommendation's steps at −5, 10, 20, 40 % are all within the tolerance; the
	// report's −30 % is a cliff: the margin ends between −20 % and −30 %.
	pts := landscapePoints(tol,
		[3]float64{-0.4, 0.002, 1}, [3]float64{-0.3, 0.208, 0}, [3]float64{-0.2, 0.001, 1}, [3]float64{-0.15, 0.001, 0},
		[3]float64{-0.1, 0, 1}, [3]float64{-0.05, 0, 1}, [3]float64{0.05, 0.004, 1}, [3]float64{0.1, 0.006, 1},
		[3]float64{0.2, 0.02, 1})
	down, open := landscapeReach(pts, -1, tol)
	assert.False(t, open)
	assert.InDelta(t, 0.2+0.1*(0.01-0.001)/(0.208-0.001), down, 1e-12)
	assert.Less(t, down, 0.3, "the cliff at −30 % lies outside the margin")
	up, open := landscapeReach(pts, 1, tol)
	assert.False(t, open)
	assert.InDelta(t, 0.1+0.1*(0.01-0.006)/(0.02-0.006), up, 1e-12)

	// No cliff on a side: open, as far as the farthest point.
	up, open = landscapeReach(landscapePoints(tol, [3]float64{0.05, 0, 1}, [3]float64{0.4, 0.003, 1}), 1, tol)
	assert.True(t, open)
	assert.Equal(t, 0.4, up)

	// An infeasible first move: the margin is the last point within (none: 0).
	pts = landscapePoints(tol, [3]float64{-0.05, 0, 1})
	pts = append(pts, LandscapePoint{Factor: -0.1, Value: 0.9, Cost: -1, Cliff: true})
	down, open = landscapeReach(pts, -1, tol)
	assert.False(t, open)
	assert.Equal(t, 0.05, down)
	pts = []LandscapePoint{{Feasible: true, Value: 1}, {Factor: 0.025, Value: 1.025, Cost: 0.05, Feasible: true, Cliff: true}}
	up, open = landscapeReach(pts, 1, tol)
	assert.False(t, open)
	assert.InDelta(t, 0.025*0.01/0.05, up, 1e-12)
}
