package source

import (
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"hash"
	"io"
	"io/fs"
	"math"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/gctune/gctune/profile"
	"github.com/gctune/gctune/profile/filip"
	"github.com/gctune/gctune/profile/gcprof"
	"github.com/gctune/gctune/profile/spec"
)

// ErrUnknownWorkload is wrapped by the error Open and Fingerprint return for a reference that
// is neither a bundled workload nor a file.
var ErrUnknownWorkload = errors.New("source: unknown workload")

// Source kinds: where Open found a profile.
const (
	// KindWorkload is a bundled workload, by name.
	KindWorkload = "workload"
	// KindSpec is a workload spec file (.yaml, .yml).
	KindSpec = "spec"
	// KindFiLiP is a FiLiP / Illimani export (.csv with its .json metadata).
	KindFiLiP = "filip"
	// KindGCProf is gctune's compact binary profile (.gcprof).
	KindGCProf = "gcprof"
)

// Options are the settings of Open and Fingerprint. The zero value opens everything with
// the defaults.
type Options struct {
	// Seed and Resolution are passed to spec.Spec.Generate for bundled workloads and spec
	// files (spec.GenerateOptions); Resolution 0 means the spec's own.
	Seed       uint64
	Resolution float64
	// Clock, SkipBadRows, FiLiPJSONPath and SamplingRate are passed to filip.Read for
	// .csv files (filip.Options: Clock, SkipBadRows, JSONPath, SamplingRate: an export
	// without metadata needs SamplingRate).
	Clock         filip.Clock
	SkipBadRows   bool
	FiLiPJSONPath string
	SamplingRate  float64
	// Rebuild is how a sampled FiLiP export on the bytes clock is rebuilt (see
	// filip.Rebuild): filip.HypothesisAuto (the zero value), HypothesisShort or HypothesisLong
	// for the lifetimes of the large objects the sample missed, HypothesisStored for
	// HypothesisLong with the pointers a FiLiP export does not record guessed, HypothesisOff
	// to weigh every record by 1/rate.
	Rebuild filip.Hypothesis
	// RebuildLargeBytes is filip.RebuildOptions.LargeObjectBytes: the size the unsampled large
	// objects of an export that sampled none are cut into (0: one per window).
	RebuildLargeBytes uint64
}

// Info tells what Open opened.
type Info struct {
	// Kind is one of the Kind* constants.
	Kind string
	// Ref is the reference as given; Path the file read (empty for a bundled workload).
	Ref  string
	Path string
	// Workload is the bundled workload's or the spec's name (empty for recorded profiles).
	Workload string
	// FiLiP is the reader's report for a FiLiP export, nil otherwise.
	FiLiP *filip.Report
	// Rebuild is the report of the rebuild of a sampled FiLiP export (see filip.Rebuild), nil when
	// none was done (not sampled, not on the bytes clock, or Options.Rebuild off).
	Rebuild *filip.RebuildReport
}

// UnknownWorkloadError is the error for a reference that is neither a bundled workload nor a
// file. It wraps ErrUnknownWorkload.
type UnknownWorkloadError struct {
	Ref   string
	Known []string
}

// Error formats `source: "foo": not a bundled workload (known: a, b) nor a file`.
func (e *UnknownWorkloadError) Error() string {
	return fmt.Sprintf("source: %q: not a bundled workload (known: %s) nor a file", e.Ref, strings.Join(e.Known, ", "))
}

// Unwrap returns ErrUnknownWorkload.
func (e *UnknownWorkloadError) Unwrap() error { return ErrUnknownWorkload }

// resolve decides what ref names, without reading it: a file whose extension says its kind
// (.yaml/.yml spec, .csv FiLiP export, .gcprof profile; case-insensitive), else a bundled
// workload's name. A name with such an extension is always a file, so a missing file gives
// the file's own "no such file" error; a file with another extension is refused.
func resolve(ref string) (kind, path string, err error) {
	switch strings.ToLower(filepath.Ext(ref)) {
	case ".yaml", ".yml":
		return KindSpec, ref, nil
	case ".csv":
		return KindFiLiP, ref, nil
	case ".gcprof":
		return KindGCProf, ref, nil
	}
	known := spec.Bundled()
	names := make([]string, len(known))
	for i, w := range known {
		if w.Name == ref {
			return KindWorkload, "", nil
		}
		names[i] = w.Name
	}
	if st, err := os.Stat(ref); err == nil && !st.IsDir() {
		return "", "", fmt.Errorf("source: %q: unknown file type %q (want .csv with its .json, .yaml or .yml spec, or .gcprof)", ref, filepath.Ext(ref))
	}
	return "", "", &UnknownWorkloadError{Ref: ref, Known: names}
}

// Open resolves ref and returns its profile.Profile with what was opened:
//
//   - a bundled workload's name (see spec.Bundled): its spec generated with opts.Seed and
//     opts.Resolution;
//   - a .yaml or .yml workload spec: loaded (spec.Load) and generated likewise;
//   - a .csv FiLiP / Illimani export: read by filip.Read with its .json metadata beside it (or
//     opts.FiLiPJSONPath), opts.Clock and opts.SkipBadRows; a sampled export on the bytes
//     clock is then rebuilt (filip.Rebuild, with opts.Rebuild; Info.Rebuild reports it), one on
//     the microsecond clock is not, with a warning in Info.FiLiP;
//   - a .gcprof file: loaded by gcprof.Load.
//
// An unknown name gives an *UnknownWorkloadError listing the bundled workloads. Errors from
// reading or parsing the input are returned as the readers give them (wrapping fs errors,
// profile.ErrInvalidProfile, spec.ErrInvalid, filip.ErrBadRow, ...): all of them are the
// input's fault.
func Open(ref string, opts Options) (*profile.Profile, *Info, error) {
	kind, path, err := resolve(ref)
	if err != nil {
		return nil, nil, err
	}
	info := &Info{Kind: kind, Ref: ref, Path: path}
	var p *profile.Profile
	switch kind {
	case KindWorkload, KindSpec:
		sp, err := openSpec(kind, ref)
		if err != nil {
			return nil, nil, err
		}
		info.Workload = sp.Name
		p, err = sp.Generate(spec.GenerateOptions{Seed: opts.Seed, Resolution: opts.Resolution})
		if err != nil {
			return nil, nil, err
		}
	case KindFiLiP:
		p, info.FiLiP, err = filip.Read(ref, filip.Options{JSONPath: opts.FiLiPJSONPath, Clock: opts.Clock, SkipBadRows: opts.SkipBadRows,
			SamplingRate: opts.SamplingRate})
		if err != nil {
			return nil, nil, err
		}
		if p, info.Rebuild, err = rebuildOpened(p, info.FiLiP, opts.Rebuild, opts.RebuildLargeBytes); err != nil {
			return nil, nil, err
		}
	case KindGCProf:
		if p, err = gcprof.Load(ref); err != nil {
			return nil, nil, err
		}
	}
	return p, info, nil
}

// rebuildOpened rebuilds a sampled export read on the bytes clock. One on the microsecond clock
// cannot be: the reader has already warned so (profile/filip/filip_convert.go), and it is kept
// as read.
func rebuildOpened(p *profile.Profile, r *filip.Report, h filip.Hypothesis, largeBytes uint64) (*profile.Profile, *filip.RebuildReport, error) {
	if p.Meta.SamplingRate >= 1 || h == filip.HypothesisOff || r.Clock != filip.ClockBytes {
		return p, nil, nil
	}
	return filip.Rebuild(p, filip.RebuildOptions{Hypothesis: h, LargeObjectBytes: largeBytes})
}

func openSpec(kind, ref string) (*spec.Spec, error) {
	if kind == KindWorkload {
		return spec.BundledSpec(ref)
	}
	return spec.Load(ref)
}

// fingerprintVersion starts every hashed stream; change it when what is hashed changes.
const fingerprintVersion = "gctune-fingerprint-v1"

// Fingerprint returns a content hash of the profile Open(ref, opts) would return, as
// "sha256:" and 64 hex digits, without generating or parsing records. Equal fingerprints mean
// the same input, so a stored result can be reused:
//
//   - a bundled workload or spec file: the parsed spec (its canonical JSON encoding, so a
//     change to comments or formatting in the YAML keeps the fingerprint), the seed and the
//     resolution;
//   - a FiLiP export: the bytes of the CSV and of its JSON metadata (if any), the clock,
//     whether bad rows are skipped, the rebuild mode and the given sampling rate (when given;
//     without metadata it must be, as for Open);
//   - a .gcprof file: its bytes.
func Fingerprint(ref string, opts Options) (string, error) {
	kind, _, err := resolve(ref)
	if err != nil {
		return "", err
	}
	h := sha256.New()
	io.WriteString(h, fingerprintVersion+"\x00"+kind+"\x00")
	switch kind {
	case KindWorkload, KindSpec:
		sp, err := openSpec(kind, ref)
		if err != nil {
			return "", err
		}
		canon, err := json.Marshal(sp)
		if err != nil {
			return "", fmt.Errorf("source: fingerprint %s: %w", ref, err)
		}
		writeChunk(h, canon)
		writeUint64(h, opts.Seed)
		writeUint64(h, math.Float64bits(opts.Resolution))
	case KindFiLiP:
		if err := hashFile(h, ref); err != nil {
			return "", err
		}
		jsonPath := opts.FiLiPJSONPath
		if jsonPath == "" {
			jsonPath = filip.DefaultJSONPath(ref)
		}
		switch err := hashFile(h, jsonPath); {
		case err == nil:
		case opts.FiLiPJSONPath == "" && errors.Is(err, fs.ErrNotExist):
			if opts.SamplingRate == 0 {
				return "", filip.NoMetadataError(ref, jsonPath)
			}
			writeUint64(h, math.MaxUint64) // no metadata
		default:
			return "", err
		}
		writeChunk(h, []byte(opts.Clock.String()))
		skip := uint64(0)
		if opts.SkipBadRows {
			skip = 1
		}
		writeUint64(h, skip)
		writeChunk(h, []byte("rebuild:"+opts.Rebuild.String()))
		if opts.SamplingRate != 0 { // absent before the rate could be given: older fingerprints hold
			writeChunk(h, []byte("rate:"+strconv.FormatFloat(opts.SamplingRate, 'g', -1, 64)))
		}
	case KindGCProf:
		if err := hashFile(h, ref); err != nil {
			return "", err
		}
	}
	return "sha256:" + hex.EncodeToString(h.Sum(nil)), nil
}

// hashFile writes the file's length and bytes to h.
func hashFile(h hash.Hash, path string) error {
	f, err := os.Open(path)
	if err != nil {
		return fmt.Errorf("source: fingerprint: %w", err)
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		return fmt.Errorf("source: fingerprint: %w", err)
	}
	writeUint64(h, uint64(st.Size()))
	if _, err := io.Copy(h, f); err != nil {
		return fmt.Errorf("source: fingerprint: %w", err)
	}
	return nil
}

// writeChunk writes b's length then b, so that consecutive chunks cannot run into each other.
func writeChunk(h hash.Hash, b []byte) {
	writeUint64(h, uint64(len(b)))
	h.Write(b)
}

func writeUint64(h hash.Hash, v uint64) {
	var b [8]byte
	binary.LittleEndian.PutUint64(b[:], v)
	h.Write(b[:])
}
