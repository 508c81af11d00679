package main

import (
	"runtime/debug"
	"strings"
)

// version is what `stwb --version` prints, from the build's own record
// (runtime/debug.ReadBuildInfo): the module version when stwb was installed with
// `go install stwb/cmd/stwb@VERSION`, else the commit it was built from and its
// date, marked "+dirty" when the work tree had changes, else "(devel)".
func version() string {
	info, ok := debug.ReadBuildInfo()
	if !ok {
		return "(unknown: built without module information)"
	}
	return versionOf(info)
}

func versionOf(info *debug.BuildInfo) string {
	settings := map[string]string{}
	for _, s := range info.Settings {
		settings[s.Key] = s.Value
	}
	v := info.Main.Version
	if v == "" {
		v = "(devel)"
	}
	if rev := settings["vcs.revision"]; rev != "" && (v == "(devel)" || strings.Contains(v, "+")) {
		if len(rev) > 12 {
			rev = rev[:12]
		}
		v = rev
		if t := settings["vcs.time"]; t != "" {
			v += " " + t
		}
		if settings["vcs.modified"] == "true" {
			v += " +dirty"
		}
	}
	if info.GoVersion != "" {
		v += " (" + info.GoVersion + ")"
	}
	return v
}
