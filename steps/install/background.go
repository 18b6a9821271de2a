package install

import "context"

// background is one piece of a run's work going on beside the step that started it: wait gives its
// answer, stop abandons it (its context is cancelled) and waits until it has ended, so nothing of
// it outlives the run or writes to a closed log.
type background[T any] struct {
	cancel context.CancelFunc
	done   chan struct{}
	val    T
	err    error
}

// inBackground starts f in a goroutine, with a context that stop cancels.
func inBackground[T any](ctx context.Context, f func(context.Context) (T, error)) *background[T] {
	ctx, cancel := context.WithCancel(ctx)
	b := &background[T]{cancel: cancel, done: make(chan struct{})}
	go func() {
		defer close(b.done)
		b.val, b.err = f(ctx)
	}()
	return b
}

func (b *background[T]) wait() (T, error) {
	<-b.done
	return b.val, b.err
}

// stop is safe on a nil b (nothing was started) and after wait.
func (b *background[T]) stop() {
	if b != nil {
		b.cancel()
		<-b.done
	}
}
