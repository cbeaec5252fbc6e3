package spec

import (
	"errors"
	"fmt"
	"math"
	"strings"
)

// ErrInvalid is wrapped by every error Parse, Load and Spec.Validate return for a
// malformed workload spec. The concrete error is a *Error naming the key.
var ErrInvalid = errors.New("spec: invalid workload spec")

// Error is a workload spec error located at a key: "spec FILE:LINE: PATH: MSG". Its first
// word names the package, as the "spec: " of the package's other errors does, and is also what
// the command line's one line keeps ("spec my.yaml:14: ..."), which drops package prefixes.
type Error struct {
	// File is the name given to Parse (a file name or "workload:NAME"); may be empty.
	File string
	// Line is the 1-based line of the offending key or value, 0 when unknown (a Spec built in Go).
	Line int
	// Path is the key path, e.g. "phases[0].mix[2].share"; empty for the whole document.
	Path string
	// Msg says what is wrong and what is wanted.
	Msg string
}

// Error formats the error as "spec FILE:LINE: PATH: MSG", leaving out the parts
// that are unknown.
func (e *Error) Error() string {
	var b strings.Builder
	b.WriteString("spec")
	switch {
	case e.File != "" && e.Line > 0:
		fmt.Fprintf(&b, " %s:%d:", e.File, e.Line)
	case e.File != "":
		fmt.Fprintf(&b, " %s:", e.File)
	case e.Line > 0:
		fmt.Fprintf(&b, " line %d:", e.Line)
	}
	if e.Path != "" {
		b.WriteString(" ")
		b.WriteString(e.Path)
		b.WriteString(":")
	}
	b.WriteString(" ")
	b.WriteString(e.Msg)
	return b.String()
}

// Unwrap makes every Error match ErrInvalid with errors.Is.
func (e *Error) Unwrap() error { return ErrInvalid }

// Spec describes a workload's allocation behaviour when no recorded profile exists: classes and
// their sizes, then phases, each allocating a number of bytes with a mix of classes and
// lifetimes, plus objects allocated straight into old space (Large), collections that grow by
// copying (Growing) and long-lived objects that keep receiving references to young objects
// (Containers). Generate turns a Spec, a seed and a resolution into a Profile. The YAML form
// is documented in docs/workloads.md; Parse reads it.
//
// Every byte quantity is in bytes; every lifetime is on the allocation clock (bytes allocated
// between an object's birth and its death).
type Spec struct {
	// Name identifies the workload ("dataframe-500mb"). Required.
	Name string
	// Description says in one line what the workload stands for.
	Description string
	// Resolution is the default number of records generated per real object, in (0, 1]; each
	// mix record then weighs round(1/Resolution) objects. 0 means 1 (one record per object).
	Resolution float64
	// AllocateBytes is the run's total mix allocation when the phases give their allocation as
	// a fraction (Phase.AllocateFraction); 0 when phases give bytes.
	AllocateBytes uint64
	// Reported carries what a real run of the workload reported, copied into the Profile's Meta.
	Reported Reported
	// Classes declares every class the phases allocate, with its default size distribution.
	Classes []Class
	// Phases run one after the other, in order.
	Phases []Phase

	// origin is the name Parse was given (file name or "workload:NAME"), used in errors
	// and as Profile.Meta.Source.
	origin string
	// lines maps a key path to the line it was read from, for errors found by Validate.
	lines map[string]int
}

// Reported holds a real run's published or measured counts, for information: Generate
// copies them into Meta (ReportedScavenges, ReportedFullGCs, RunSeconds). Zero = unknown.
type Reported struct {
	// Scavenges is the number of scavenges the run reported (VM parameter 9; YAML "scavenges").
	Scavenges int
	// FullGCs is the number of full GCs the run reported (VM parameter 7; YAML "fullGCs").
	FullGCs int
	// RunSeconds is the run's wall-clock length in seconds (YAML "runSeconds").
	RunSeconds float64
}

// Class declares a class.
type Class struct {
	// Name is the class name, as it will appear in the Profile's class table.
	Name string
	// Size is the distribution of one object's size in bytes, header included (nil: every
	// entry using the class must give its own size). Sizes are clamped to at least 16 bytes
	// (Spur's minimum object) and rounded up to a multiple of 8 (the allocation unit).
	Size *Dist
	// Pointers says whether instances hold object pointers (YAML "pointers"): false for
	// byte and word classes, which marking does not scan. Nil: decided by the class name
	// (IsByteClassName).
	Pointers *bool
}

// Phase is one phase of the run. A phase allocates AllocateBytes (or AllocateFraction of
// Spec.AllocateBytes) of small objects drawn from Mix; the Large, Growing and Containers
// objects are allocated on top of that, at their scheduled points of the phase's mix
// allocation, so the phase's length on the clock is the mix bytes plus their sizes.
type Phase struct {
	// Name identifies the phase ("load rows"). Required and unique.
	Name string
	// AllocateBytes is the phase's mix allocation in bytes (weighted object sizes).
	AllocateBytes uint64
	// AllocateFraction, when AllocateBytes is 0, is the phase's share of Spec.AllocateBytes in
	// (0, 1] (written "75%" in YAML).
	AllocateFraction float64
	// Mix is the allocation mix: the shares of the phase's allocated objects per class.
	Mix []Mix
	// Large lists objects allocated straight into old space.
	Large []Large
	// Growing lists collections that grow by allocating a bigger array and dropping the old one.
	Growing []Growing
	// Containers lists long-lived objects that keep receiving references to young objects.
	Containers []Container
}

// Mix is one entry of a phase's allocation mix.
type Mix struct {
	// Class names a declared class.
	Class string
	// Share is this entry's fraction of the phase's allocated objects (by count, not bytes),
	// in (0, 1]. A phase's shares sum to 1.
	Share float64
	// Size overrides the class's size distribution (nil: the class's).
	Size *Dist
	// Lifetime is the distribution of each object's lifetime. Required.
	Lifetime Dist
	// Resolution, when above the generation resolution, samples this entry more finely (for
	// rare, big objects): records per real object in (0, 1]. 0 = the generation resolution.
	Resolution float64
	// StoredInto, when set, says that each object is referenced from a named container for
	// part of its life (YAML "storedInto").
	StoredInto *StoredInto
	// HeldBy, when set, names the class of another entry of the same phase whose objects hold
	// this entry's (YAML "heldBy"): a young→young reference, such as a row Array holding its
	// cells or a column Array holding its values. Each object is held by the newest object of
	// that entry drawn before it in the phase (the one being filled), from its birth to its
	// death, when that holder is still alive at its birth; an object drawn before any holder,
	// or after the newest one died, is held by nothing. heapsim copies held objects
	// breadth-first after their holder and remembers a tenured holder
	// (docs/spur-model.md §3.1, §3.6).
	HeldBy string
	// Site names the allocation site of the entry's objects, as the exporter writes it
	// (textualAllocatorMethod, "NeoCSVReader>>#readField"; "Foo>>bar" is read as "Foo>>#bar"),
	// optionally with its offset ("… @23"): the profile's site column (docs/sites.md). Empty:
	// the unknown site.
	Site string
}

// StoredInto says which container references a mix entry's objects, and when: from
// From × lifetime after birth, for For × lifetime, or from the start of phase At (or birth,
// if later) to death. The YAML form is `storedInto: {container: rows, from: birth, for: 0.3}`
// or `storedInto: {container: cells, at: build}`; from is "birth" (0) or a fraction in
// [0, 1) (a number or a percentage), for a fraction in (0, 1] (default: the rest of the life,
// 1 − from). The referent's container is the newest container of the name alive at the
// store, the collection being filled: a growing collection's current array (its successors
// keep the reference), or the last of a containers entry's objects allocated so far. An
// object stored when no container of the name is alive is stored nowhere.
type StoredInto struct {
	// Container names a containers or growing entry (its "name" key) of any phase.
	Container string
	// From is where in the object's life the store happens, as a fraction of its lifetime.
	From float64
	// For is how long the container keeps the reference, as a fraction of the lifetime (0:
	// the rest of the life).
	For float64
	// At names a phase: the store happens when it starts (From and For must be 0).
	At string
}

// Large describes objects allocated straight into old space, one record (weight 1) each.
// Objects over 65,535 slots (bigger than 524,296 bytes with headers) go there by size; smaller
// ones are flagged FlagOldSpace (pinned or explicit old-space allocations).
type Large struct {
	// Class names a declared class.
	Class string
	// Size overrides the class's size distribution (nil: the class's).
	Size *Dist
	// Count is the number of objects, ≥ 1.
	Count int
	// Lifetime of each object; a zero Dist means until-end.
	Lifetime Dist
	// At places the objects in the phase: "even" (default: spread evenly), "start", "end" or
	// "random" (uniformly at random). Ignored when EveryBytes is set.
	At string
	// EveryBytes, when set, places object k (from 1) after k × EveryBytes of the phase's mix
	// allocation; Count × EveryBytes must not exceed the phase's allocation.
	EveryBytes uint64
	// Site names the allocation site of the entry's objects, as the exporter writes it
	// (textualAllocatorMethod, "NeoCSVReader>>#readField"; "Foo>>bar" is read as "Foo>>#bar"),
	// optionally with its offset ("… @23"): the profile's site column (docs/sites.md). Empty:
	// the unknown site.
	Site string
}

// Growing describes Count collections growing side by side from FromBytes to ToBytes by
// Factor, like an OrderedCollection's internal array: each step allocates the bigger array and
// the previous one dies when its successor is allocated. The content grows steadily over the
// phase, to FillBytes at its end, and step j > 0 comes when it fills step j−1's array: at the
// fraction size(j−1)/FillBytes of the phase's mix allocation; step 0 at the start. Arrays over
// the 65,535-slot limit go to old space by size. One record (weight 1) per array.
type Growing struct {
	// Class names a declared class.
	Class string
	// Count is the number of collections growing together, ≥ 1.
	Count int
	// FromBytes and ToBytes are the first and last array sizes; FromBytes ≤ ToBytes.
	FromBytes, ToBytes uint64
	// Factor is the growth factor between steps, > 1 (0 means 2).
	Factor float64
	// FillBytes is the size, in the arrays' bytes, of the content at the end of the phase (an
	// OrderedCollection of n elements: 8 × n + 16): at least the next-to-last array's size, at
	// most ToBytes; 0 means ToBytes (the last array is full at the end).
	FillBytes uint64
	// Lifetime of the last array; a zero Dist means until-end.
	Lifetime Dist
	// Container makes each array a Container receiving young references from its birth until
	// it is replaced (or the phase ends).
	Container bool
	// Name, when set, makes the collection a container that mix entries can name in
	// storedInto: each array holds the references stored into it and hands them to the next.
	Name string
	// Site names the allocation site of the entry's objects, as the exporter writes it
	// (textualAllocatorMethod, "NeoCSVReader>>#readField"; "Foo>>bar" is read as "Foo>>#bar"),
	// optionally with its offset ("… @23"): the profile's site column (docs/sites.md). Empty:
	// the unknown site.
	Site string
}

// Container describes long-lived objects that keep receiving references to young objects
// (a DataFrame column being filled, a cache's hash table), so that once in old space they stay
// in the remembered set and are scanned at every scavenge. One record (weight 1) each, plus a
// Container entry in the Profile.
type Container struct {
	// Class names a declared class.
	Class string
	// Slots sizes the object as a pointer array: 8 × Slots bytes plus an 8-byte header (16 for
	// 255 slots or more). Give Slots or SizeBytes, or neither to use the class's size.
	Slots int
	// SizeBytes is the object's size in bytes, header included.
	SizeBytes uint64
	// Count is the number of containers, ≥ 1 (0 means 1).
	Count int
	// Lifetime of each container; a zero Dist means until-end.
	Lifetime Dist
	// At places the containers: "start" (default), "even", "end" or "random".
	At string
	// Receives is how long it receives young references from objects the profile does not
	// list (short-lived ones): "phase" (default: from its birth to the end of the phase),
	// "life" (from its birth to its death) or "none" (only the referents that mix entries
	// store into it by Name).
	Receives string
	// Name lets mix entries store their objects into these containers (storedInto).
	Name string
	// Immediates is the share of its slots that hold immediates (SmallIntegers,
	// SmallFloat64s, Characters) rather than object pointers, in [0, 1] (YAML "immediates").
	Immediates float64
	// OldSpace flags a container small enough for new space as allocated straight into old
	// space (FlagOldSpace).
	OldSpace bool
	// Site names the allocation site of the entry's objects, as the exporter writes it
	// (textualAllocatorMethod, "NeoCSVReader>>#readField"; "Foo>>bar" is read as "Foo>>#bar"),
	// optionally with its offset ("… @23"): the profile's site column (docs/sites.md). Empty:
	// the unknown site.
	Site string
}

// Dist is a distribution of sizes or lifetimes, both in bytes (lifetimes on the allocation
// clock). Kind selects which fields apply:
//
//	fixed            ValueBytes
//	uniform          MinBytes..MaxBytes; as a lifetime without MaxBytes: uniform over the
//	                 rest of the run (death uniform between birth+MinBytes and the end)
//	exponential      MeanBytes
//	lognormal        MedianBytes, Sigma (of the log)
//	normal           MeanBytes, StdDevBytes
//	gamma            MeanBytes, Shape
//	weibull          ScaleBytes, Shape
//	pareto           ScaleBytes (the minimum), Alpha
//	choice           ValuesBytes, Weights (optional, default equal)
//
// Lifetimes only:
//
//	immediate        dies before the next allocation (lifetime 0)
//	until-end        alive at the end of the run (FlagAliveAtEnd)
//	until-phase-end  dies when Phase ends (default: the phase allocating it)
//	fraction-of-run  lives Fraction × the run's length
//
// For every kind but uniform, MinBytes and MaxBytes (when non-zero) clamp the samples.
// Samples are drawn with gonum's stat/distuv distributions from a seeded source.
type Dist struct {
	// Kind names the distribution (YAML key "dist").
	Kind string
	// ValueBytes is a fixed distribution's value ("value").
	ValueBytes float64
	// MinBytes and MaxBytes bound uniform, and clamp the other kinds ("min", "max"; 0 = none).
	MinBytes, MaxBytes float64
	// MeanBytes is the mean of exponential, normal and gamma ("mean").
	MeanBytes float64
	// MedianBytes and Sigma (of the log) parameterise lognormal ("median", "sigma").
	MedianBytes, Sigma float64
	// StdDevBytes is normal's standard deviation ("stddev").
	StdDevBytes float64
	// Shape is gamma's and weibull's shape ("shape").
	Shape float64
	// ScaleBytes is weibull's scale and pareto's minimum ("scale").
	ScaleBytes float64
	// Alpha is pareto's tail index ("alpha").
	Alpha float64
	// ValuesBytes and Weights are choice's values and their relative weights ("values",
	// "weights"; no weights = equal).
	ValuesBytes, Weights []float64
	// Fraction is fraction-of-run's share of the run, in [0, 1] ("fraction").
	Fraction float64
	// Phase names until-phase-end's phase ("phase"; empty = the allocating phase).
	Phase string
}

// Distribution kind names (Dist.Kind).
const (
	distFixed         = "fixed"
	distUniform       = "uniform"
	distExponential   = "exponential"
	distLognormal     = "lognormal"
	distNormal        = "normal"
	distGamma         = "gamma"
	distWeibull       = "weibull"
	distPareto        = "pareto"
	distChoice        = "choice"
	distImmediate     = "immediate"
	distUntilEnd      = "until-end"
	distUntilPhaseEnd = "until-phase-end"
	distFractionOfRun = "fraction-of-run"
)

// Limits that keep a spec within what a Profile can hold and a generator can produce.
const (
	// specMaxObjectBytes is the largest object a record can describe (SizeBytes is a uint32,
	// rounded to 8).
	specMaxObjectBytes = math.MaxUint32 &^ 7
	// specMaxRunBytes bounds the run's length on the clock (2^62 bytes), far beyond any real
	// run, so that clock arithmetic cannot overflow.
	specMaxRunBytes = 1 << 62
	// specMinResolution bounds resolutions so weights fit a uint32.
	specMinResolution = 1e-9
	// specMaxGrowSteps bounds a growing collection's steps.
	specMaxGrowSteps = 64
	// specShareTolerance is how far a phase's shares may sum from 1.
	specShareTolerance = 1e-6
)
