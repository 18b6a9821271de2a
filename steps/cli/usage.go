package cli

import (
	"errors"
	"fmt"
	"io"
	"regexp"
	"strconv"
	"strings"
	"sync"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"gpuwiz/steps/app"
	"gpuwiz/steps/i18n"
)

// isUsageError recognises cobra's own errors for bad arguments and unknown commands.
func isUsageError(err error) bool {
	msg := err.Error()
	//i18n:raw cobra's and pflag's own error texts, matched, never shown
	for _, s := range []string{"unknown command", "unknown flag", "unknown shorthand", "accepts ", "requires at least", "invalid argument", "flag needs an argument", "required flag", "none of the others can be", "bad flag syntax"} {
		if strings.Contains(msg, s) {
			return true
		}
	}
	return false
}

func init() {
	cobra.AddTemplateFunc("i18nFlags", flagUsages)
	cobra.AddTemplateFunc("i18nUseLine", useLine)
}

// localizeCobra puts cobra's own words in the current language: the usage and help templates, the
// default help and completion commands, the -h/--help and -v/--version flags, the errors for bad
// flags and bad arguments. In English the output is cobra's own, byte for byte.
func localizeCobra(root *cobra.Command) {
	root.InitDefaultHelpCmd()
	root.InitDefaultCompletionCmd()
	root.SetUsageTemplate(usageTemplate())
	root.Flags().BoolP("version", "v", false, i18n.T("cli.help.version_flag", i18n.D{"Command": root.Name()}))
	_ = root.Flags().SetAnnotation("version", cobra.FlagSetByCobraAnnotation, []string{"true"})
	root.SetFlagErrorFunc(func(c *cobra.Command, err error) error {
		return &ExitError{Code: ExitUsage, Err: flagError(c, err)}
	})
	var walk func(c *cobra.Command)
	walk = func(c *cobra.Command) {
		if c.Flags().Lookup("help") == nil {
			c.Flags().BoolP("help", "h", false, i18n.T("cli.help.help_flag", i18n.D{"Command": c.Name()}))
			_ = c.Flags().SetAnnotation("help", cobra.FlagSetByCobraAnnotation, []string{"true"})
		}
		if c.Args != nil {
			c.Args = argsIn(c.Args)
		}
		for _, sub := range c.Commands() {
			walk(sub)
		}
	}
	for _, c := range root.Commands() {
		switch c.Name() {
		case "help":
			c.Short = i18n.T("cli.help.cmd_short")
			c.Long = i18n.T("cli.help.cmd_long", i18n.D{"Command": root.Name()})
		case "completion":
			c.Short = i18n.T("cli.completion.short")
			c.Long = i18n.T("cli.completion.long", i18n.D{"Command": root.Name()})
			for _, sh := range c.Commands() {
				sh.Short = i18n.T("cli.completion.shell_short", i18n.D{"Shell": sh.Name()})
				switch sh.Name() {
				case "bash":
					sh.Long = i18n.T("cli.completion.bash_long", i18n.D{"Command": root.Name()})
				case "zsh":
					sh.Long = i18n.T("cli.completion.zsh_long", i18n.D{"Command": root.Name()})
				case "fish":
					sh.Long = i18n.T("cli.completion.fish_long", i18n.D{"Command": root.Name()})
				case "powershell":
					sh.Long = i18n.T("cli.completion.powershell_long", i18n.D{"Command": root.Name()})
				}
				if f := sh.Flags().Lookup("no-descriptions"); f != nil {
					f.Usage = i18n.T("cli.completion.no_descriptions")
				}
			}
		}
	}
	walk(root)
}

// usageTemplate is cobra's default usage template with its headings from the catalog.
func usageTemplate() string {
	command := i18n.T("cli.help.command_word")
	//i18n:raw a cobra template: its headings come from the catalog
	return i18n.T("cli.help.usage") + `{{if .Runnable}}
  {{i18nUseLine .}}{{end}}{{if .HasAvailableSubCommands}}
  {{.CommandPath}} [` + command + `]{{end}}{{if gt (len .Aliases) 0}}

` + i18n.T("cli.help.aliases") + `
  {{.NameAndAliases}}{{end}}{{if .HasExample}}

` + i18n.T("cli.help.examples") + `
{{.Example}}{{end}}{{if .HasAvailableSubCommands}}{{$cmds := .Commands}}{{if eq (len .Groups) 0}}

` + i18n.T("cli.help.available_commands") + `{{range $cmds}}{{if (or .IsAvailableCommand (eq .Name "help"))}}
  {{rpad .Name .NamePadding }} {{.Short}}{{end}}{{end}}{{else}}{{range $group := .Groups}}

{{.Title}}{{range $cmds}}{{if (and (eq .GroupID $group.ID) (or .IsAvailableCommand (eq .Name "help")))}}
  {{rpad .Name .NamePadding }} {{.Short}}{{end}}{{end}}{{end}}{{if not .AllChildCommandsHaveGroup}}

` + i18n.T("cli.help.additional_commands") + `{{range $cmds}}{{if (and (eq .GroupID "") (or .IsAvailableCommand (eq .Name "help")))}}
  {{rpad .Name .NamePadding }} {{.Short}}{{end}}{{end}}{{end}}{{end}}{{end}}{{if .HasAvailableLocalFlags}}

` + i18n.T("cli.help.flags") + `
{{i18nFlags .LocalFlags | trimTrailingWhitespaces}}{{end}}{{if .HasAvailableInheritedFlags}}

` + i18n.T("cli.help.global_flags") + `
{{i18nFlags .InheritedFlags | trimTrailingWhitespaces}}{{end}}{{if .HasHelpSubCommands}}

` + i18n.T("cli.help.help_topics") + `{{range .Commands}}{{if .IsAdditionalHelpTopicCommand}}
  {{rpad .CommandPath .CommandPathPadding}} {{.Short}}{{end}}{{end}}{{end}}{{if .HasAvailableSubCommands}}

` + i18n.T("cli.help.more", i18n.D{"Command": "{{.CommandPath}} [" + command + "]"}) + `{{end}}
`
}

var flagDefault = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^(.*) \(default (.*)\)$`) })

// flagUsages is pflag's list of flags; in Chinese its "(default X)" reads "（默认：X）".
func flagUsages(fs *pflag.FlagSet) string {
	s := fs.FlagUsages()
	if !i18n.IsChinese() {
		return s
	}
	lines := strings.Split(s, "\n")
	for i, l := range lines {
		if m := flagDefault().FindStringSubmatch(l); m != nil {
			lines[i] = m[1] + i18n.T("cli.help.flag_default", i18n.D{"Value": m[2]})
		}
	}
	return strings.Join(lines, "\n")
}

// useLine is cobra's UseLine with its "[flags]" in the current language.
func useLine(c *cobra.Command) string {
	s := c.UseLine()
	if i18n.IsChinese() {
		if rest, ok := strings.CutSuffix(s, " [flags]"); ok {
			s = rest + " [" + i18n.T("cli.help.flags_word") + "]"
		}
	}
	return s
}

// flagError is pflag's error for a bad flag: cobra's English words (a value pflag cannot parse: the
// catalog's), or a Chinese sentence that says what to do. Both end by pointing at --help.
func flagError(c *cobra.Command, err error) error {
	if a := c.Flags().Args(); c.HasAvailableSubCommands() && len(a) > 0 {
		// "gpuwiz chanels --json": cobra found no command "chanels", so it parsed the flags as the
		// parent's, which has no --json. The word before the flag is the mistake.
		return argsError(c, fmt.Errorf("unknown command %q for %q", a[0], c.CommandPath())) //i18n:raw cobra's words, matched by argsError
	}
	var invalid *pflag.InvalidValueError
	if !i18n.IsChinese() && !errors.As(err, &invalid) {
		// pflag's English is plain for a flag that does not exist or lacks its value; a value it
		// cannot parse it reports with Go's parser error (strconv.ParseInt: parsing "x": invalid
		// syntax), so that one takes the catalog's words below in English too.
		return fmt.Errorf("%w (see --help)", err)
	}
	help := c.CommandPath() + " --help"
	var notExist *pflag.NotExistError
	var needs *pflag.ValueRequiredError
	var syntax *pflag.InvalidSyntaxError
	switch {
	case errors.As(err, &notExist) && len(notExist.GetSpecifiedShortnames()) > 1:
		return i18n.Wrap(err, i18n.T("cli.usage.unknown_shorthand", i18n.D{"Flag": "-" + notExist.GetSpecifiedName(), "In": "-" + notExist.GetSpecifiedShortnames(), "Help": help}))
	case errors.As(err, &notExist):
		flag := "--" + notExist.GetSpecifiedName()
		if notExist.GetSpecifiedShortnames() != "" {
			flag = "-" + notExist.GetSpecifiedName()
		}
		return i18n.Wrap(err, i18n.T("cli.usage.unknown_flag", i18n.D{"Flag": flag, "Help": help}))
	case errors.As(err, &needs):
		name := "--" + needs.GetSpecifiedName()
		if needs.GetSpecifiedShortnames() != "" {
			name = "-" + needs.GetFlag().Shorthand
		}
		return i18n.Wrap(err, i18n.T("cli.usage.needs_value", i18n.D{"Flag": name, "Help": help}))
	case errors.As(err, &invalid) && errors.Is(err, app.ErrPathUnset):
		// A path flag naming a variable that is not set: the path's own words say what to do.
		return i18n.Wrap(err, i18n.T("cli.usage.bad_path", i18n.D{"Flag": "--" + invalid.GetFlag().Name, "Err": errors.Unwrap(invalid).Error(), "Help": help}))
	case errors.As(err, &invalid):
		f := invalid.GetFlag()
		return i18n.Wrap(err, i18n.T("cli.usage.invalid_value", i18n.D{"Flag": "--" + f.Name, "Value": invalid.GetValue(), "Want": valueKind(f.Value.Type()), "Help": help}))
	case errors.As(err, &syntax):
		return i18n.Wrap(err, i18n.T("cli.usage.bad_syntax", i18n.D{"Flag": syntax.GetSpecifiedFlag(), "Help": help}))
	}
	return i18n.Wrap(err, i18n.T("cli.usage.bad_flag", i18n.D{"Err": err.Error(), "Help": help}))
}

// valueKind says what a flag of pflag's type takes.
func valueKind(typ string) string {
	switch typ {
	case "duration":
		return i18n.T("cli.usage.kind_duration")
	case "int", "int8", "int16", "int32", "int64", "uint", "uint8", "uint16", "uint32", "uint64", "count":
		return i18n.T("cli.usage.kind_int")
	case "bool":
		return i18n.T("cli.usage.kind_bool")
	case "float32", "float64":
		return i18n.T("cli.usage.kind_number")
	}
	return i18n.T("cli.usage.kind_text")
}

// usageText is i18n.Wrap as a usage error (exit 2).
func usageText(err error, text string) error {
	return &ExitError{Code: ExitUsage, Err: i18n.Wrap(err, text)}
}

var (
	argsUnknown = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^unknown command "(.*)" for "(.*)"$`) })
	argsCount   = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`^(accepts|accepts at most|requires at least|accepts between) (\d+)(?: and (\d+))? arg\(s\), (?:only )?received (\d+)$`)
	})
	argsInvalid = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^invalid argument "(.*)" for "(.*)"$`) })
)

// argsIn wraps a command's cobra.PositionalArgs so that its error says, in the current language,
// what was wrong and what to type (cobra's own, "unknown command "chanels" for "gpuwiz"" or "accepts 1
// arg(s), received 0", names neither the command meant nor its usage). It is a usage error (exit 2).
func argsIn(check cobra.PositionalArgs) cobra.PositionalArgs {
	return func(c *cobra.Command, args []string) error {
		err := check(c, args)
		if err == nil {
			return err
		}
		return &ExitError{Code: ExitUsage, Err: argsError(c, err)}
	}
}

func argsError(c *cobra.Command, err error) error {
	help := c.CommandPath() + " --help"
	msg := err.Error()
	if m := argsUnknown().FindStringSubmatch(msg); m != nil {
		if !c.HasAvailableSubCommands() {
			return i18n.Wrap(err, i18n.T("cli.usage.no_args", i18n.D{"Command": c.CommandPath(), "Arg": m[1], "Help": help}))
		}
		text := i18n.T("cli.usage.unknown_command", i18n.D{"Arg": m[1], "Command": c.CommandPath(), "Help": help})
		if c.SuggestionsMinimumDistance <= 0 {
			c.SuggestionsMinimumDistance = 2 // cobra's own default
		}
		if s := c.SuggestionsFor(m[1]); len(s) > 0 {
			text += i18n.T("cli.usage.did_you_mean", i18n.D{"Command": c.CommandPath() + " " + s[0]})
		}
		return i18n.Wrap(err, text)
	}
	if m := argsCount().FindStringSubmatch(msg); m != nil {
		n, _ := strconv.Atoi(m[2])
		got, _ := strconv.Atoi(m[4])
		switch m[1] {
		case "accepts":
			return i18n.Wrap(err, i18n.N("cli.usage.args_exact", n, i18n.D{"Usage": useLine(c), "Got": got}))
		case "accepts at most": //i18n:raw cobra's words, matched
			return i18n.Wrap(err, i18n.N("cli.usage.args_at_most", n, i18n.D{"Usage": useLine(c), "Got": got}))
		case "requires at least": //i18n:raw cobra's words, matched
			return i18n.Wrap(err, i18n.N("cli.usage.args_at_least", n, i18n.D{"Usage": useLine(c), "Got": got}))
		default:
			hi, _ := strconv.Atoi(m[3])
			return i18n.Wrap(err, i18n.T("cli.usage.args_between", i18n.D{"Min": n, "Max": hi, "Usage": useLine(c), "Got": got}))
		}
	}
	if m := argsInvalid().FindStringSubmatch(msg); m != nil {
		return i18n.Wrap(err, i18n.T("cli.usage.invalid_arg", i18n.D{"Arg": m[1], "Command": c.CommandPath(), "Help": help}))
	}
	return i18n.Wrap(err, i18n.T("cli.usage.bad_args", i18n.D{"Err": msg, "Help": help}))
}

var (
	requiredFlags  = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^required flag\(s\) (.*) not set$`) })
	exclusiveFlags = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`^if any flags in the group \[(.*)\] are set none of the others can be; \[(.*)\] were all set$`)
	})
)

// cobraError is an error cobra returns without asking the command (required and exclusive flags),
// in the current language; in English too, as cobra's own words for these ("if any flags in the
// group [venv env] are set none of the others can be; …") do not say what to do.
func cobraError(cmd *cobra.Command, err error) error {
	if err == nil || cmd == nil {
		return err
	}
	var ee *ExitError
	if errors.As(err, &ee) {
		return err
	}
	help := cmd.CommandPath() + " --help"
	msg := err.Error()
	if m := requiredFlags().FindStringSubmatch(msg); m != nil {
		var names []string
		for _, n := range strings.Split(m[1], ", ") {
			names = append(names, "--"+strings.Trim(n, `"`))
		}
		return usageText(err, i18n.T("cli.usage.required_flags", i18n.D{"Flags": i18n.Join(names), "Help": help}))
	}
	if m := exclusiveFlags().FindStringSubmatch(msg); m != nil {
		var names []string
		for _, n := range strings.Fields(m[2]) {
			names = append(names, "--"+n)
		}
		return usageText(err, i18n.T("cli.usage.exclusive_flags", i18n.D{"Flags": i18n.Join(names), "Help": help}))
	}
	return err
}

// table lines cells up in columns by display width (a CJK character is two columns), as
// text/tabwriter with padding 2 does for ASCII: every cell but a row's last is padded to its
// column's widest cell plus two spaces.
type table struct{ rows [][]string }

func (t *table) row(cells ...string) { t.rows = append(t.rows, cells) }

func (t *table) write(w io.Writer) {
	var widths []int
	for _, r := range t.rows {
		for i, c := range r[:len(r)-1] {
			if i >= len(widths) {
				widths = append(widths, 0)
			}
			widths[i] = max(widths[i], i18n.Width(c))
		}
	}
	for _, r := range t.rows {
		var b strings.Builder
		for i, c := range r {
			if i == len(r)-1 {
				b.WriteString(c)
				break
			}
			b.WriteString(i18n.Pad(c, widths[i]+2))
		}
		fmt.Fprintln(w, b.String())
	}
	t.rows = nil
}
