package cli

import (
	"encoding/json"
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
	Out    io.Writer
	JSON   bool
	Dir    string // --cache-dir: "" the default cache
	Days   int    // prune: entries not used for this many days
	Wheels bool   // prune: the wheels too
}

func newCacheCmd(env *Env) *cobra.Command {
	var o cacheOptions
	cmd := &cobra.Command{
		Use:     "cache",
		Short:   i18n.T("cli.cache.short"),
		Long:    i18n.T("cli.cache.long"),
		Example: "  gpuwiz cache\n  gpuwiz cache --json\n  gpuwiz cache prune --older-than 30", //i18n:raw commands
		Args:    cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			o.Out = cmd.OutOrStdout()
			return cacheRun(o)
		},
	}
	cmd.PersistentFlags().BoolVar(&o.JSON, "json", false, i18n.T("cli.cache.flag.json"))
	cmd.PersistentFlags().StringVar(&o.Dir, "cache-dir", "", i18n.T("cli.cache.flag.cache_dir"))
	prune := &cobra.Command{
		Use:     "prune",
		Short:   i18n.T("cli.cache.prune.short"),
		Long:    i18n.T("cli.cache.prune.long"),
		Example: "  gpuwiz cache prune\n  gpuwiz cache prune --older-than 30 --json\n  gpuwiz cache prune --wheels", //i18n:raw commands
		Args:    cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			o.Out = cmd.OutOrStdout()
			return cachePruneRun(o)
		},
	}
	prune.Flags().IntVar(&o.Days, "older-than", 0, i18n.T("cli.cache.prune.flag.older_than"))
	prune.Flags().BoolVar(&o.Wheels, "wheels", false, i18n.T("cli.cache.prune.flag.wheels"))
	cmd.AddCommand(prune)
	return cmd
}

// cacheRun prints what the wheel cache holds.
func cacheRun(o cacheOptions) error {
	rep, err := app.ReadCache(o.Dir)
	if err != nil {
		return Exitf(ExitFailure, "%v", err)
	}
	return printCache(o.Out, rep, o.JSON)
}

// cachePruneRun removes the cache's entries not used for o.Days days (the wheels too with o.Wheels)
// and prints what is left.
func cachePruneRun(o cacheOptions) error {
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
	return printCache(o.Out, rep, o.JSON)
}

func printCache(w io.Writer, rep app.CacheReport, asJSON bool) error {
	if asJSON {
		enc := json.NewEncoder(w)
		enc.SetIndent("", "  ")
		return enc.Encode(rep)
	}
	fmt.Fprintln(w, i18n.T("cli.cache.wheels", i18n.D{"Dir": rep.Dir, "Size": i18n.Size(rep.WheelBytes)}))
	if len(rep.Builds) == 0 {
		fmt.Fprintln(w, "  "+i18n.T("cli.cache.empty"))
	}
	for _, b := range rep.Builds {
		fmt.Fprintf(w, "  %s  %s\n", i18n.Pad(b.Name, 28), i18n.N("cli.cache.build", b.Wheels, i18n.D{"Size": i18n.Size(b.Bytes)}))
	}
	fmt.Fprintln(w, i18n.N("cli.cache.unpacked", len(rep.Unpacked), i18n.D{"Dir": rep.UnpackedDir, "Size": i18n.Size(rep.UnpackedBytes)}))
	return nil
}
