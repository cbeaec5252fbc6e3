package spec

import (
	"errors"
	"fmt"
	"io"
	"os"

	"gopkg.in/yaml.v3"
)

// MaxBytes caps a workload spec file: real specs are a few kilobytes, and a larger file (or
// an endless one, /dev/zero) is refused before it is parsed.
const MaxBytes = 16 << 20

// ErrTooLarge is wrapped by the error for an input over its size cap.
var ErrTooLarge = errors.New("too large")

// ReadCapped reads the whole file at path, refusing it once it passes limit bytes: it reads
// through io.LimitReader(limit+1), so a device that never ends (/dev/zero) is refused after
// limit+1 bytes, not read without bound. what names the input in the error ("spec", "config").
func ReadCapped(path string, limit int64, what string) ([]byte, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	data, err := io.ReadAll(io.LimitReader(f, limit+1))
	if err != nil {
		return nil, err
	}
	if int64(len(data)) > limit {
		return nil, fmt.Errorf("%s: larger than the %d MiB a %s may have (%w)", path, limit>>20, what, ErrTooLarge)
	}
	return data, nil
}

// Bounds on alias expansion, yaml.v3's own (decode.go: allowedAliasRatio): a document may
// reach through aliases at most as many nodes as this ratio of all the nodes it is walked
// through, a ratio that falls from 0.99 for small documents to 0.10 for large ones. Small
// documents (under 1,000 nodes walked, or 100 through aliases) are always allowed.
const (
	aliasRatioRangeLow  = 400000
	aliasRatioRangeHigh = 4000000
	aliasMinWalked      = 1000
	aliasMinAliased     = 100
)

func allowedAliasRatio(walked int) float64 {
	switch {
	case walked <= aliasRatioRangeLow:
		return 0.99
	case walked >= aliasRatioRangeHigh:
		return 0.10
	default:
		return 0.99 - 0.89*(float64(walked-aliasRatioRangeLow)/(aliasRatioRangeHigh-aliasRatioRangeLow))
	}
}

// aliasBudget bounds the work of a walk over a YAML node tree that follows aliases, as the spec
// parser's does: each alias followed walks its whole target again, so "a: &a [x, x]; b: &b
// [*a, *a]; ..." doubles the work at each line (a 230 KB spec took 50 s and 1 GB before this
// bound). follow counts the nodes each alias reaches and refuses once they are out of
// proportion to the document, as yaml.v3's Decode does.
type aliasBudget struct {
	nodes   int                // nodes in the document, aliases not expanded
	aliased int                // nodes reached through aliases so far
	sizes   map[*yaml.Node]int // subtree sizes, aliases counted as one node
}

// newAliasBudget counts root's nodes.
func newAliasBudget(root *yaml.Node) *aliasBudget {
	b := &aliasBudget{sizes: map[*yaml.Node]int{}}
	b.nodes = b.size(root)
	return b
}

// size is the number of nodes under n, n included, aliases counted as one.
func (b *aliasBudget) size(n *yaml.Node) int {
	if n == nil {
		return 0
	}
	if s, ok := b.sizes[n]; ok {
		return s
	}
	b.sizes[n] = 1 // a cycle through n counts once
	s := 1
	for _, c := range n.Content {
		s += b.size(c)
	}
	b.sizes[n] = s
	return s
}

// follow records that the walk follows an alias to target, and refuses when the nodes reached
// through aliases are out of proportion.
func (b *aliasBudget) follow(target *yaml.Node) error {
	if b == nil {
		return nil
	}
	b.aliased += b.size(target)
	walked := b.nodes + b.aliased
	if b.aliased > aliasMinAliased && walked > aliasMinWalked &&
		float64(b.aliased)/float64(walked) > allowedAliasRatio(walked) {
		return fmt.Errorf("excessive aliasing: aliases expand to more than %d nodes from a document of %d", b.aliased, b.nodes)
	}
	return nil
}
