package ui

import (
	"strings"

	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"
)

type welcomeChoice struct {
	journey     Journey
	title, hint string
}

var welcomeChoices = []welcomeChoice{
	{JourneyNew, "Set up a new environment", "a venv with a GPU build of PyTorch or PaddlePaddle, verified and benchmarked"},
	{JourneyChange, "Change the channel of an existing environment", "switch CUDA channel (say cu118 to cu126), keeping the framework version when it can"},
	{JourneyRepair, "Repair an environment (doctor)", "find what broke (CPU build, mixed Paddle, stray indexes) and fix it"},
	{JourneyCheck, "Just check this machine", "driver, cards and the builds that fit, then quit; changes nothing"},
}

// welcomeScreen asks which journey to take.
type welcomeScreen struct {
	c      *Common
	id     screenID
	cursor int
	pick   key.Binding // 1-4: one key per journey
	w, h   int
}

func newWelcome(c *Common) *welcomeScreen {
	pick := c.Keys.Pick
	pick.SetKeys("1", "2", "3", "4")
	pick.SetHelp("1-4", "choose")
	return &welcomeScreen{c: c, id: c.newID(), pick: pick}
}

func (s *welcomeScreen) Init() tea.Cmd    { return nil }
func (s *welcomeScreen) ident() screenID  { return s.id }
func (s *welcomeScreen) Title() string    { return "Welcome" }
func (s *welcomeScreen) SetSize(w, h int) { s.w, s.h = w, h }
func (s *welcomeScreen) ShortHelp() []key.Binding {
	k := s.c.Keys
	return []key.Binding{k.Up, k.Down, k.Select}
}
func (s *welcomeScreen) FullHelp() [][]key.Binding {
	k := s.c.Keys
	return [][]key.Binding{{k.Up, k.Down}, {k.Select, s.pick}}
}

func (s *welcomeScreen) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	if msg, ok := msg.(tea.KeyMsg); ok {
		k := s.c.Keys
		switch {
		case key.Matches(msg, k.Up):
			s.cursor = (s.cursor + len(welcomeChoices) - 1) % len(welcomeChoices)
		case key.Matches(msg, k.Down):
			s.cursor = (s.cursor + 1) % len(welcomeChoices)
		case key.Matches(msg, s.pick):
			s.cursor = int(msg.String()[0] - '1')
			return s, navigate(journeyChosenMsg{welcomeChoices[s.cursor].journey})
		case key.Matches(msg, k.Select):
			return s, navigate(journeyChosenMsg{welcomeChoices[s.cursor].journey})
		}
	}
	return s, nil
}

func (s *welcomeScreen) View() string {
	st := s.c.Styles
	var b strings.Builder
	b.WriteString(wrap("A GPU build of PyTorch or PaddlePaddle in a Python venv, verified on your card.", s.w) + "\n")
	b.WriteString(st.Dim.Render(wrap("Nothing changes on this machine until you confirm a plan.", s.w)) + "\n\n")
	for i, ch := range welcomeChoices {
		cur, title := st.NoCursor, st.Normal.Render(ch.title)
		if i == s.cursor {
			cur, title = st.Cursor, st.Selected.Render(ch.title)
		}
		b.WriteString(cur + st.Dim.Render(string(rune('1'+i))+". ") + title + "\n")
		for _, l := range strings.Split(wrap(ch.hint, s.w-5), "\n") {
			b.WriteString("     " + st.Dim.Render(l) + "\n")
		}
	}
	return b.String()
}
