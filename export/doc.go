// Package export writes a configuration in the formats a user applies or checks it with:
//
//   - st: a Pharo startup script. The new-space size only takes effect when the VM starts, so
//     it is given as the --edenSize= launch flag (or parameter 45, saved in the image header);
//     the others are Smalltalk vm parameterAt:put: lines, each with a comment giving its VM
//     parameter number, unit, value in exact MiB, when it takes effect and what persists.
//   - json: the parameters, the prediction, the recommendation (what was put back and why) and
//     the study's provenance.
//   - yaml: the same as a gctune configuration file (simulate section), loadable with --config.
//   - flags: gctune simulate's own flags.
//
// A parameter the recommendation leaves at the VM default is not set by any format.
//
// Names (studies, workloads) are the user's text and may hold anything: every format escapes
// them for its own syntax (a Smalltalk comment doubles '"', a YAML comment gets a quoted,
// one-line form), so that no name can add code to a script or keys to a configuration. The
// fuzz target FuzzNames checks both over arbitrary names.
//
// What each comment claims about the VM is checked against pharo-vm's source:
// SpurMemoryManager>>attemptToShrink (shrinking needs free space above both the shrink
// threshold and the growth headroom, and releases only wholly empty segments),
// growOldSpaceByAtLeast:callingOperation: (segments of at least the headroom, a larger request
// rounded up to a power of two), StackInterpreterPrimitives>>primitiveSetVMParameter:arg:
// (25 and 24 must be positive, 45 only stores the desired size for the image header),
// SpurGenerationScavenger>>scavengerTenuringProportionToKeepInPastSpace: (parameter 6 in
// 64-byte units, applied at once), and Pharo's VirtualMachine>>setGCParameters (parameter 6 is
// reset at every session start and after every snapshot).
package export
