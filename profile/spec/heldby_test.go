package spec

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// heldBySpec is a phase of rows and their cells: each cell is held by the newest row drawn
// before it (Mix.HeldBy), a young→young reference.
const heldBySpec = `
name: heldby
classes:
  - {name: Array, size: 808}
  - {name: Cell, size: 32}
  - {name: Garbage, size: 48}
phases:
  - name: read
    allocate: 4MB
    mix:
      - {class: Array, share: 0.01, lifetime: until-end}
      - {class: Cell, share: 0.5, lifetime: {dist: exponential, mean: 1MB}, heldBy: Array}
      - {class: Garbage, share: 0.49, lifetime: immediate}
`

// TestGenerateHeldBy: each cell is held by the newest row born before it, none before the
// first row; rows and garbage are held by nothing.
func TestGenerateHeldBy(t *testing.T) {
	s, err := Parse([]byte(heldBySpec), "heldby.yaml")
	require.NoError(t, err)
	assert.Equal(t, "Array", s.Phases[0].Mix[1].HeldBy)
	p, err := s.Generate(GenerateOptions{Seed: 5})
	require.NoError(t, err)
	require.NotNil(t, p.HeldBy)
	newest, held := -1, 0
	for i := range p.Birth {
		switch p.ClassName(i) {
		case "Array":
			assert.Zero(t, p.HeldBy[i])
			newest = i
		case "Cell":
			if newest < 0 {
				assert.Zero(t, p.HeldBy[i], "a cell drawn before any row")
				continue
			}
			assert.Equal(t, int32(newest+1), p.HeldBy[i], "cell %d", i)
			held++
		default:
			assert.Zero(t, p.HeldBy[i])
		}
	}
	assert.Positive(t, held)
}

// TestGenerateHeldByAbsent: a spec that states no holder generates no HeldBy column.
func TestGenerateHeldByAbsent(t *testing.T) {
	s, err := Parse([]byte(strings.Replace(heldBySpec, ", heldBy: Array", "", 1)), "heldby.yaml")
	require.NoError(t, err)
	p, err := s.Generate(GenerateOptions{Seed: 5})
	require.NoError(t, err)
	assert.Nil(t, p.HeldBy)
}

// TestParseHeldByErrors: heldBy names the class of exactly one other entry of the phase.
func TestParseHeldByErrors(t *testing.T) {
	cases := []struct{ name, old, new, want string }{
		{"own class", "heldBy: Array", "heldBy: Cell", `phases[0].mix[1].heldBy: "Cell" is this entry's own class`},
		{"no entry", "heldBy: Array", "heldBy: Row", `phases[0].mix[1].heldBy: no mix entry of the phase allocates class "Row"`},
		{"two entries", "      - {class: Garbage, share: 0.49, lifetime: immediate}\n",
			"      - {class: Garbage, share: 0.48, lifetime: immediate}\n      - {class: Array, share: 0.01, lifetime: immediate}\n",
			`phases[0].mix[1].heldBy: 2 mix entries of the phase allocate class "Array"`},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			require.Contains(t, heldBySpec, c.old)
			_, err := Parse([]byte(strings.Replace(heldBySpec, c.old, c.new, 1)), "heldby.yaml")
			require.ErrorIs(t, err, ErrInvalid)
			assert.Contains(t, err.Error(), c.want)
		})
	}
}
