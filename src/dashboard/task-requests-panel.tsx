import { Suspense, useState } from 'react';
import { Link } from 'wouter';
import { TASK_STATUS_LABELS, TASK_TRANSITIONS, type TaskRequest, type TaskRequestInput, type TaskStatus } from '../../core/schemas/task-requests';
import { toEditorError, type EditorError } from '../../machines/recordEditor.machine';
import { routes } from '../app/routes';
import type { SelectOption } from '../ui/form/select-field';
import { SaveErrorNotice } from '../ui/record/save-error-notice';
import { Panel, type PanelData } from './panel';
import { lazyPage } from '../app/lazy-page';
import type { TaskFormOptions } from './task-form-dialog';

// The form code (react-hook-form, the dialog) is fetched when a task is first added or edited, not with the dashboard.
const TaskFormDialog = lazyPage(() => import('./task-form-dialog'), 'TaskFormDialog');

/** What a button moving a task to each status says. */
const MOVE_LABELS: Record<TaskStatus, string> = { open: 'Reopen', 'in-progress': 'Start', done: 'Mark done', cancelled: 'Cancel task' };

export interface TaskCalls {
  /** Adds the task, or saves `task` with the form's values. */
  save(values: TaskRequestInput, task: TaskRequest | null): Promise<TaskRequest>;
  move(task: TaskRequest, status: TaskStatus): Promise<TaskRequest>;
  loadOptions(organizationId: string): Promise<TaskFormOptions>;
}

interface TaskRequestsPanelProps {
  orgId: string;
  loaded: PanelData<TaskRequest[]>;
  /** Organizations a new task may be added to (spec 2.2; the current one, or the user's at `all`). */
  organizations: readonly SelectOption[];
  canAdd: boolean;
  canEdit: boolean;
  calls: TaskCalls;
  /** After any change: the list and the counts are read again. */
  onChanged(): void;
}

/**
 * Task requests still to do (spec 2.2): open and in progress, with their assignee, case and due
 * date; Add and Edit open the task dialog, the status buttons follow ARCHITECTURE.md "States".
 */
export function TaskRequestsPanel({ orgId, loaded, organizations, canAdd, canEdit, calls, onChanged }: TaskRequestsPanelProps) {
  const [dialog, setDialog] = useState<{ task: TaskRequest | null } | null>(null);
  const [failure, setFailure] = useState<EditorError | null>(null);
  const [moving, setMoving] = useState<string | null>(null);
  const showOrganization = organizations.length > 1;

  const move = async (task: TaskRequest, status: TaskStatus) => {
    setFailure(null);
    setMoving(task.id);
    try {
      await calls.move(task, status);
    } catch (err) {
      setFailure(toEditorError(err));
    } finally {
      setMoving(null);
      onChanged();
    }
  };

  const actions =
    canAdd && organizations.length > 0 ? (
      <button type="button" className="button button--primary" onClick={() => setDialog({ task: null })}>
        New task
      </button>
    ) : null;

  return (
    <>
      <Panel title="Task requests" loaded={loaded} isEmpty={(t) => t.length === 0} empty="No open task requests." actions={actions}>
        {(tasks) => (
          <table className="dashboard-table">
            <thead>
              <tr>
                <th scope="col">Task</th>
                {showOrganization ? <th scope="col">Organization</th> : null}
                <th scope="col">Assigned to</th>
                <th scope="col">Case</th>
                <th scope="col">Due</th>
                <th scope="col">Status</th>
                {canEdit ? <th scope="col">Actions</th> : null}
              </tr>
            </thead>
            <tbody>
              {tasks.map((task) => (
                <tr key={task.id}>
                  <th scope="row">
                    {task.title}
                    {task.description ? <span className="dashboard-table__detail">{task.description}</span> : null}
                  </th>
                  {showOrganization ? <td>{task.organizationName}</td> : null}
                  <td>{task.assignedTo?.name ?? 'Nobody yet'}</td>
                  <td>{task.case ? <Link href={routes.CaseInvolvedParties.href({ orgId, caseId: task.case.id })}>{task.case.caseNumber}</Link> : '—'}</td>
                  <td>{task.dueDate ?? '—'}</td>
                  <td>{TASK_STATUS_LABELS[task.status]}</td>
                  {canEdit ? (
                    <td className="dashboard-table__actions">
                      {TASK_TRANSITIONS[task.status].map((to) => (
                        <button
                          key={to}
                          type="button"
                          className="button button--secondary"
                          disabled={moving === task.id}
                          aria-label={`${MOVE_LABELS[to]}: ${task.title}`}
                          onClick={() => void move(task, to)}
                        >
                          {MOVE_LABELS[to]}
                        </button>
                      ))}
                      <button type="button" className="button button--ghost" aria-label={`Edit: ${task.title}`} onClick={() => setDialog({ task })}>
                        Edit
                      </button>
                    </td>
                  ) : null}
                </tr>
              ))}
            </tbody>
          </table>
        )}
      </Panel>
      {failure ? <SaveErrorNotice error={failure} /> : null}
      {dialog !== null ? (
        <Suspense fallback={null}>
          <TaskFormDialog
            open
            task={dialog.task ?? null}
            organizations={organizations}
            loadOptions={calls.loadOptions}
            save={(values) => calls.save(values, dialog.task ?? null)}
            onSaved={() => {
              setDialog(null);
              onChanged();
            }}
            onCancel={() => setDialog(null)}
          />
        </Suspense>
      ) : null}
    </>
  );
}
