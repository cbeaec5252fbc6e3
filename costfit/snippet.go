package costfit

// Snippet is a Pharo script that measures one run of the application's work at whatever GC
// parameters the VM runs with, writes run.json for `gctune calibrate --measured run.json` and
// prints the same figures as a "gctune-stats {json}" line on standard output, which
// `gctune verify` reads. Times are written in milliseconds, the VM's unit (wallMs, gcMs,
// scavengeMs, fullGCMs); gctune converts them. The VM parameters it reads (docs/spur-model.md
// §5): 7 full GCs, 8 ms in full GCs, 9 scavenges, 10 ms in scavenges, all cumulative since
// start-up, so the script takes differences around the work.
const Snippet = `"gctune: measure one run of the application's work.
 Writes run.json (gctune calibrate PROFILE --measured run.json) and prints a gctune-stats line
 (read by gctune verify). Put the application's work in the block, then run for example
     pharo --headless App.image st bench.st
 VM parameters: 7 full GCs, 8 ms in full GCs, 9 scavenges, 10 ms in scavenges (since start-up)."
| vm before wallMs after delta stats json |
vm := Smalltalk vm.
before := #(7 8 9 10) collect: [ :i | vm parameterAt: i ].
wallMs := Time millisecondsToRun: [
	"The application's work, for example:"
	DataFrame readFromCsv: '/path/to/data.csv' asFileReference ].
after := #(7 8 9 10) collect: [ :i | vm parameterAt: i ].
delta := after with: before collect: [ :a :b | a - b ].
stats := Dictionary new.
stats
	at: 'wallMs' put: wallMs;
	at: 'fullGCs' put: (delta at: 1);
	at: 'fullGCMs' put: (delta at: 2);
	at: 'scavenges' put: (delta at: 3);
	at: 'scavengeMs' put: (delta at: 4);
	at: 'gcMs' put: (delta at: 2) + (delta at: 4).
json := STON toJsonString: stats.
'run.json' asFileReference ensureDelete; writeStreamDo: [ :s | s nextPutAll: json ].
Stdio stdout nextPutAll: 'gctune-stats ', json; lf; flush.
Smalltalk snapshot: false andQuit: true.
`
