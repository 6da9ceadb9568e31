package session

import "context"

// JobID names one piece of background work (a scan, column statistics,
// indexing): its reports carry it, and a report whose job is no longer
// live (stopped, overtaken by a newer one, its level closed) is dropped.
// The zero JobID is no job.
type JobID uint64

// Jobs are the background work under way. Start numbers a job and gives
// it a context; Stop cancels it; Live tells a report of it that is still
// wanted from a stale one: the one place stale results are dropped.
type Jobs struct {
	last JobID
	live map[JobID]context.CancelFunc
}

// Start starts a job: its id and the context its work runs under, done
// once the job is stopped.
func (j *Jobs) Start() (JobID, context.Context) {
	if j.live == nil {
		j.live = map[JobID]context.CancelFunc{}
	}
	j.last++
	ctx, cancel := context.WithCancel(context.Background())
	j.live[j.last] = cancel
	return j.last, ctx
}

// Live reports whether job id is under way: started and neither stopped
// nor ended.
func (j *Jobs) Live(id JobID) bool {
	_, ok := j.live[id]
	return ok && id != 0
}

// Stop cancels job id and forgets it; a stopped, ended or zero id is
// ignored.
func (j *Jobs) Stop(id JobID) {
	if cancel, ok := j.live[id]; ok {
		cancel()
		delete(j.live, id)
	}
}

// Running is the number of jobs under way.
func (j *Jobs) Running() int { return len(j.live) }
