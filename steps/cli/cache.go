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

func newCacheCmd(env *Env) *cobra.Command {
	var asJSON bool
	var dir string
	cmd := &cobra.Command{
		Use:     "cache",
		Short:   i18n.T("cli.cache.short"),
		Long:    i18n.T("cli.cache.long"),
		Example: "  gpuwiz cache\n  gpuwiz cache --json\n  gpuwiz cache prune --older-than 30", //i18n:raw commands
		Args:    cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			rep, err := app.ReadCache(dir)
			if err != nil {
				return Exitf(ExitFailure, "%v", err)
			}
			return printCache(cmd.OutOrStdout(), rep, asJSON)
		},
	}
	cmd.PersistentFlags().BoolVar(&asJSON, "json", false, i18n.T("cli.cache.flag.json"))
	cmd.PersistentFlags().StringVar(&dir, "cache-dir", "", i18n.T("cli.cache.flag.cache_dir"))
	var days int
	var wheels bool
	prune := &cobra.Command{
		Use:     "prune",
		Short:   i18n.T("cli.cache.prune.short"),
		Long:    i18n.T("cli.cache.prune.long"),
		Example: "  gpuwiz cache prune\n  gpuwiz cache prune --older-than 30 --json\n  gpuwiz cache prune --wheels", //i18n:raw commands
		Args:    cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if days < 0 {
				return Usagef("%s", i18n.T("cli.cache.prune.bad_days", i18n.D{"Days": days}))
			}
			rep, err := app.PruneCache(dir, time.Duration(days)*24*time.Hour, wheels)
			if err != nil {
				return Exitf(ExitFailure, "%v", err)
			}
			if !asJSON {
				var freed int64
				for _, e := range rep.Removed {
					freed += e.Bytes
				}
				for _, b := range rep.RemovedBuilds {
					freed += b.Bytes
				}
				fmt.Fprintln(cmd.OutOrStdout(), i18n.T("cli.cache.pruned", i18n.D{"Entries": len(rep.Removed), "Builds": len(rep.RemovedBuilds), "Size": i18n.Size(freed)}))
			}
			return printCache(cmd.OutOrStdout(), rep, asJSON)
		},
	}
	prune.Flags().IntVar(&days, "older-than", 0, i18n.T("cli.cache.prune.flag.older_than"))
	prune.Flags().BoolVar(&wheels, "wheels", false, i18n.T("cli.cache.prune.flag.wheels"))
	cmd.AddCommand(prune)
	return cmd
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
