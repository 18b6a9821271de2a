package ui

import (
	"slices"
	"strings"

	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"
	"github.com/hashicorp/go-version"

	"gpuwiz/steps/app"
	"gpuwiz/steps/i18n"
)

// frameworkChoice is one framework with the versions the matrix offers, newest first.
type frameworkChoice struct {
	framework string
	versions  []string
	version   int // index into versions; starts at the recommendation
	rec       string
	err       error
	loaded    bool
}

// frameworkScreen picks PyTorch or PaddlePaddle and a version, defaulting to the recommendation.
type frameworkScreen struct {
	frame
	report  app.GPUReport
	choices []*frameworkChoice
	cursor  int
}

func newFrameworkScreen(c *Common, r app.GPUReport) *frameworkScreen {
	return &frameworkScreen{frame: newFrame(c), report: r, choices: []*frameworkChoice{{framework: "torch"}, {framework: "paddle"}}}
}

func (s *frameworkScreen) Init() tea.Cmd {
	var cmds []tea.Cmd
	for _, ch := range s.choices {
		if !ch.loaded {
			cmds = append(cmds, channelsCmd(s.id, s.c.Ctx, s.c.Backend, factsFor(s.report, ch.framework, "")))
		}
	}
	return tea.Batch(cmds...)
}

func (s *frameworkScreen) Title() string { return i18n.T("ui.framework.title") }
func (s *frameworkScreen) ShortHelp() []key.Binding {
	k := s.c.Keys
	return []key.Binding{k.Up, k.Down, k.Left, k.Right, k.Select}
}
func (s *frameworkScreen) FullHelp() [][]key.Binding {
	k := s.c.Keys
	return [][]key.Binding{{k.Up, k.Down}, {k.Left, k.Right}, {k.Select}}
}

// versionsOf lists the distinct framework versions of sel, newest first (the selection lists the
// recommendation first, which need not be the newest).
func versionsOf(sel app.Selection) []string {
	var out []string
	seen := map[string]bool{}
	for _, c := range sel.Candidates {
		if !seen[c.FrameworkVersion] {
			seen[c.FrameworkVersion] = true
			out = append(out, c.FrameworkVersion)
		}
	}
	slices.SortStableFunc(out, newestFirst)
	return out
}

// newestFirst orders framework versions newest first ("3.4.0" before "3.3.1"); one that does not
// parse keeps its place.
func newestFirst(a, b string) int {
	va, ea := version.NewVersion(a)
	vb, eb := version.NewVersion(b)
	if ea != nil || eb != nil {
		return 0
	}
	return vb.Compare(va)
}

func (s *frameworkScreen) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	switch msg := msg.(type) {
	case channelsMsg:
		for _, ch := range s.choices {
			if ch.framework != msg.about {
				continue
			}
			ch.loaded, ch.err = true, msg.err
			ch.versions = versionsOf(msg.value)
			if msg.value.Recommended != nil {
				ch.rec = msg.value.Recommended.FrameworkVersion
				for i, v := range ch.versions {
					if v == ch.rec {
						ch.version = i
					}
				}
			}
		}
	case tea.KeyMsg:
		k := s.c.Keys
		cur := s.choices[s.cursor]
		switch {
		case key.Matches(msg, k.Up):
			s.cursor = (s.cursor + len(s.choices) - 1) % len(s.choices)
		case key.Matches(msg, k.Down):
			s.cursor = (s.cursor + 1) % len(s.choices)
		case key.Matches(msg, k.Left) && cur.version+1 < len(cur.versions):
			cur.version++ // older: the list is newest first
		case key.Matches(msg, k.Right) && cur.version > 0:
			cur.version--
		case key.Matches(msg, k.Select) && len(cur.versions) > 0:
			return s, navigate(frameworkMsg{cur.framework, cur.versions[cur.version]})
		}
	}
	return s, nil
}

func (s *frameworkScreen) View() string {
	st := s.c.Styles
	var b strings.Builder
	b.WriteString(i18n.T("ui.framework.question") + "\n\n")
	for i, ch := range s.choices {
		cur, name := st.NoCursor, st.Normal.Render(app.FrameworkName(ch.framework))
		if i == s.cursor {
			cur, name = st.Cursor, st.Selected.Render(app.FrameworkName(ch.framework))
		}
		b.WriteString(cur + name + "\n")
		switch {
		case !ch.loaded:
			b.WriteString("    " + st.Dim.Render(i18n.T("ui.framework.reading")) + "\n")
		case ch.err != nil:
			b.WriteString("    " + st.Err.Render(ch.err.Error()) + "\n")
		case len(ch.versions) == 0:
			b.WriteString("    " + st.Dim.Render(i18n.T("ui.framework.none")) + "\n")
		default:
			v := ch.versions[ch.version]
			line := i18n.T("ui.framework.version", i18n.D{"Version": st.Label.Render(v)})
			if v == ch.rec {
				line += "  " + st.Recommend.Render(i18n.T("ui.framework.recommended", i18n.D{"Star": st.Star}))
			} else if ch.rec != "" {
				line += "  " + st.Dim.Render(i18n.T("ui.framework.recommended_is", i18n.D{"Version": ch.rec}))
			}
			b.WriteString("    " + line + "\n")
			b.WriteString("    " + st.Dim.Render(i18n.N("ui.framework.count", len(ch.versions))) + "\n")
		}
		b.WriteString("\n")
	}
	b.WriteString(st.Dim.Render(wrap(i18n.T("ui.framework.one_per_venv"), s.w)))
	return b.String()
}
