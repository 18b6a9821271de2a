package cli

import (
	"context"
	"fmt"
	"io"
	"time"

	"github.com/spf13/cobra"

	"gpuwiz/steps/app"
	"gpuwiz/steps/i18n"
)

func init() { register(43, newCacheCmd) }

// cacheOptions is what `gpuwiz cache` and `gpuwiz cache prune` were asked (their flags) and where they print.
type cacheOptions struct {
	streams
	Dir    string // --cache-dir: "" the default cache
	Days   int    // prune: entries not used for this many days
	Wheels bool   // prune: the wheels too
}

func newCacheCmd(env *Env) *cobra.Command {
	return newCommand(env, command[cacheOptions]{
		use:     "cache",
		short:   i18n.T("cli.cache.short"),
		long:    i18n.T("cli.cache.long"),
		example: "  gpuwiz cache\n  gpuwiz cache --json\n  gpuwiz cache prune --older-than 30", //i18n:raw commands
		flags: func(cmd *cobra.Command, o *cacheOptions) {
			cmd.PersistentFlags().BoolVar(&o.JSON, "json", false, i18n.T("cli.cache.flag.json"))
			cmd.PersistentFlags().StringVar(&o.Dir, "cache-dir", "", i18n.T("cli.cache.flag.cache_dir"))
			cmd.AddCommand(newCommand(env, command[cacheOptions]{
				use:     "prune",
				short:   i18n.T("cli.cache.prune.short"),
				long:    i18n.T("cli.cache.prune.long"),
				example: "  gpuwiz cache prune\n  gpuwiz cache prune --older-than 30 --json\n  gpuwiz cache prune --wheels", //i18n:raw commands
				// --json and --cache-dir are the parent's: prune fills the options they are bound to
				opts: o,
				flags: func(cmd *cobra.Command, o *cacheOptions) {
					cmd.Flags().IntVar(&o.Days, "older-than", 0, i18n.T("cli.cache.prune.flag.older_than"))
					cmd.Flags().BoolVar(&o.Wheels, "wheels", false, i18n.T("cli.cache.prune.flag.wheels"))
				},
				run: cachePruneRun,
			}))
		},
		run: cacheRun,
	})
}

// cacheRun prints what the wheel cache holds.
func cacheRun(_ context.Context, _ *Env, o cacheOptions) error {
	rep, err := app.ReadCache(o.Dir)
	if err != nil {
		return Exitf(ExitFailure, "%v", err)
	}
	return show(o.streams, rep, printCache)
}

// cachePruneRun removes the cache's entries not used for o.Days days (the wheels too with o.Wheels)
// and prints what is left.
func cachePruneRun(_ context.Context, _ *Env, o cacheOptions) error {
	if o.Days < 0 {
		return Usagef("%s", i18n.T("cli.cache.prune.bad_days", i18n.D{"Days": o.Days}))
	}
	rep, err := app.PruneCache(o.Dir, time.Duration(o.Days)*24*time.Hour, o.Wheels)
	if err != nil {
		return Exitf(ExitFailure, "%v", err)
	}
	if !o.JSON {
		var freed int64
		for _, e := range rep.Removed {
			freed += e.Bytes
		}
		for _, b := range rep.RemovedBuilds {
			freed += b.Bytes
		}
		fmt.Fprintln(o.Out, i18n.T("cli.cache.pruned", i18n.D{"Entries": len(rep.Removed), "Builds": len(rep.RemovedBuilds), "Size": i18n.Size(freed)}))
	}
	return show(o.streams, rep, printCache)
}

func printCache(w io.Writer, rep app.CacheReport) {
	fmt.Fprintln(w, i18n.T("cli.cache.wheels", i18n.D{"Dir": rep.Dir, "Size": i18n.Size(rep.WheelBytes)}))
	if len(rep.Builds) == 0 {
		fmt.Fprintln(w, "  "+i18n.T("cli.cache.empty"))
	}
	for _, b := range rep.Builds {
		fmt.Fprintf(w, "  %s  %s\n", i18n.Pad(b.Name, 28), i18n.N("cli.cache.build", b.Wheels, i18n.D{"Size": i18n.Size(b.Bytes)}))
	}
	fmt.Fprintln(w, i18n.N("cli.cache.unpacked", len(rep.Unpacked), i18n.D{"Dir": rep.UnpackedDir, "Size": i18n.Size(rep.UnpackedBytes)}))
}
