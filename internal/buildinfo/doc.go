// Package buildinfo is the running gctune's identity: the version, commit and date main
// injects (Build, from -ldflags), completed from the binary's embedded build information
// (Resolve: the module version of a `go install module@version`, the vcs revision, time and
// modified flag of a build from a checkout), as `gctune version` prints it (Info, WriteText)
// and as the commands record it (Stamp: what an output records, and a stored
// recommendation's key). Nothing here is global: the caller passes the Build it was given and
// the build information it read (debug.ReadBuildInfo).
package buildinfo
