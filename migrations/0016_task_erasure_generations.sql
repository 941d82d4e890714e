-- The generations a prune retired, queued with the conversation's task-record erasure (issue 32,
-- SPEC R11.1). A turn that read the conversation before the prune may save its task record
-- after it — even after the Worker drained the queue; the task list refuses records of a
-- retired generation and erases the ones it holds, whenever they were written.
ALTER TABLE llamon_task_erasures ADD COLUMN IF NOT EXISTS generations text[] NOT NULL DEFAULT '{}';
