import { useCallback, useEffect, useMemo, useRef, useState, type ReactNode } from 'react';
import { AgGridReact, type CustomCellRendererProps } from 'ag-grid-react';
import {
  CellStyleModule,
  ColumnAutoSizeModule,
  InfiniteRowModelModule,
  ModuleRegistry,
  RowStyleModule,
  TextFilterModule,
  ValidationModule,
  themeQuartz,
  type ColDef,
  type GridApi,
  type IDatasource,
  type IGetRowsParams,
  type RowClickedEvent,
} from 'ag-grid-community';
import type { ListQueryInput, ListResult } from '../../../core/schemas/list';
import { pageRequest } from './page-request';
import { serialReload } from './serial-reload';

ModuleRegistry.registerModules([InfiniteRowModelModule, ColumnAutoSizeModule, CellStyleModule, TextFilterModule, RowStyleModule, ...(import.meta.env?.DEV ? [ValidationModule] : [])]);

/** One column of a DataTable: the list call's field name, its header, and how a cell shows. */
export interface DataColumn<T> {
  field: string;
  header: string;
  sortable?: boolean;
  /** Offers a text filter that the server applies (contains, case-insensitive). */
  filterable?: boolean;
  /** Text of the cell; defaults to the row's `field` value. */
  text?(row: T): string;
  /** Content of the cell when it is more than text (links, badges). */
  render?(row: T): ReactNode;
  /** Starting width; like every column but a `flex` one it then grows or shrinks to its content. */
  width?: number;
  /**
   * A column of long free text (a message, a list of changes, a chemistry's markers): it shares the room the other
   * columns leave, by this weight, and may cut its text, which its record's own page shows whole. Every other column
   * is as wide as its content.
   */
  flex?: number;
  /** Narrowest width (px); past it the grid scrolls sideways in its own box. */
  minWidth?: number;
  /**
   * The cell's text is this many lines (one per `\n`); every row is as tall as the tallest row
   * loaded, since the grid's paged rows all share one height.
   */
  lines?(row: T): number;
}

export interface DataTableProps<T> {
  /** Accessible name of the grid, e.g. "Users". */
  label: string;
  columns: readonly DataColumn<T>[];
  /** The `{ items, count }` list call; paging, sorting and filtering happen on the server. */
  load(query: ListQueryInput): Promise<ListResult<T>>;
  /** Where a row leads when clicked or opened with Enter. */
  rowHref?(row: T): string | undefined;
  onNavigate?(href: string): void;
  /** Changing it reloads the rows (after a delete, for example). */
  reloadKey?: unknown;
  pageSize?: number;
  /** Shown when the list is empty. */
  emptyText?: string;
}

/**
 * Up to this many rows the grid grows with its rows (the page scrolls); above it the grid keeps a fixed
 * height and draws only the rows in view: a grown grid draws every row, and 100,000 of them froze the
 * browser for good.
 */
export const GROWN_GRID_ROWS = 100;

/** A long-text column narrower than this showed a letter or two of its text. */
const LONG_TEXT_MIN_WIDTH = 200;
/** Columns fit their content (headers included) whenever rows or the grid's width change, then fill the grid. */
const AUTO_SIZE = { type: 'fitCellContents', continuous: true, scaleUpToFitGridWidth: true } as const;
/** Quartz's row height, the height of a row of one line. */
const ROW_HEIGHT = 42;
/** One more line of text in a cell (14 px text at line-height 1.4). */
const LINE_HEIGHT = 20;

/** The height of rows whose tallest cell has `lines` lines. */
export const rowHeightFor = (lines: number): number => Math.max(ROW_HEIGHT, ROW_HEIGHT + (lines - 1) * LINE_HEIGHT);

// Cells padded 10 px a side, not Quartz's 16: columns sized to their content leave more of them in view.
const theme = themeQuartz.withParams({ fontFamily: 'inherit', headerFontWeight: 600, cellHorizontalPadding: 10, accentColor: 'var(--color-accent, #1f5f8b)' });

/** "12 records"; an estimate of a long list reads "about 1,000,000 records". */
export function countText(count: number | null, estimated: boolean): string {
  if (count === null) return '';
  if (estimated) return `about ${count.toLocaleString('en-US')} records`;
  return `${count} ${count === 1 ? 'record' : 'records'}`;
}

/**
 * AG Grid over a server-side list call (infinite row model: the grid asks for blocks of rows as the
 * user scrolls; the server pages, sorts and filters). A search box above it searches every column.
 */
export function DataTable<T extends { id: string }>(props: DataTableProps<T>) {
  const { label, columns, rowHref, onNavigate, reloadKey, pageSize = 50, emptyText = 'Nothing here yet.' } = props;
  const [search, setSearch] = useState('');
  const [count, setCount] = useState<number | null>(null);
  // The server's estimate of a long list (ListResult.estimated): the count reads "about …".
  const [estimated, setEstimated] = useState(false);
  const scrolls = count !== null && count > GROWN_GRID_ROWS;
  const [failed, setFailed] = useState(false);
  const gridRef = useRef<GridApi<T> | null>(null);
  const loadRef = useRef(props.load);
  loadRef.current = props.load;
  const searchRef = useRef(search);
  searchRef.current = search;
  // One read at a time: a change heard while rows are being read waits until they are shown; the rows on screen stay meanwhile.
  const reloads = useMemo(
    () =>
      serialReload(() => {
        const grid = gridRef.current;
        if (grid && !grid.isDestroyed()) grid.refreshInfiniteCache();
      }),
    [],
  );
  const columnsRef = useRef(columns);
  columnsRef.current = columns;
  // The most lines a loaded row's cell has; rows share one height, so it only grows until the rows are read again.
  const linesRef = useRef(1);

  const columnDefs = useMemo<ColDef<T>[]>(
    () =>
      columns.map((c) => ({
        colId: c.field,
        field: c.field as never,
        headerName: c.header,
        sortable: c.sortable ?? false,
        filter: c.filterable ? 'agTextColumnFilter' : false,
        filterParams: c.filterable ? { filterOptions: ['contains'], maxNumConditions: 1 } : undefined,
        // AG Grid sizes every column but a flex one to its content (autoSizeStrategy below).
        ...(c.flex ? { flex: c.flex, minWidth: c.minWidth ?? LONG_TEXT_MIN_WIDTH } : { ...(c.width ? { width: c.width } : {}), ...(c.minWidth ? { minWidth: c.minWidth } : {}) }),
        // A long-text (flex) column shows the start of its text, the whole on the record's page: the only cells a list cuts.
        ...(c.lines || c.flex ? { cellClass: [...(c.lines ? ['data-table__cell--lines'] : []), ...(c.flex ? ['data-table__cell--long-text'] : [])] } : {}),
        valueGetter: (p) => (p.data ? (c.text ? c.text(p.data) : String((p.data as Record<string, unknown>)[c.field] ?? '')) : ''),
        ...(c.render ? { cellRenderer: (p: CustomCellRendererProps<T>) => (p.data ? c.render!(p.data) : null) } : {}),
      })),
    [columns],
  );

  /** Makes the rows tall enough for the tallest cell loaded (the columns fit their cells by the grid's autoSizeStrategy). */
  const fitRows = useCallback((grid: GridApi<T>, items: readonly T[]) => {
    const cols = columnsRef.current;
    const lines = Math.max(linesRef.current, ...items.flatMap((row) => cols.map((c) => c.lines?.(row) ?? 1)));
    linesRef.current = lines;
    if (grid.getGridOption('rowHeight') !== rowHeightFor(lines)) grid.setGridOption('rowHeight', rowHeightFor(lines));
  }, []);

  const datasource = useMemo<IDatasource>(
    () => ({
      getRows(params: IGetRowsParams) {
        const query = pageRequest(params, pageSize, searchRef.current);
        const generation = reloads.generation;
        const settled = reloads.started();
        loadRef.current(query).then(
          (result) => {
            // A page left before its rows arrived: its grid is gone (calling it shows AG Grid's warning panel).
            const grid = gridRef.current;
            if (grid?.isDestroyed()) return;
            // The answer of a read made before the rows were dropped (a new search) must not set the count; the grid ignores its rows.
            if (!reloads.current(generation)) {
              params.successCallback(result.items, result.count);
              return settled();
            }
            setFailed(false);
            // Before the grid learns the count, or a grown grid would first draw every row.
            grid?.setGridOption('domLayout', result.count > GROWN_GRID_ROWS ? 'normal' : 'autoHeight');
            setCount(result.count);
            setEstimated(result.estimated === true);
            params.successCallback(result.items, result.count);
            if (grid) fitRows(grid, result.items);
            if (result.count === 0) grid?.showNoRowsOverlay();
            else grid?.hideOverlay();
            settled();
          },
          () => {
            if (reloads.current(generation)) setFailed(true);
            params.failCallback();
            settled();
          },
        );
      },
    }),
    [pageSize, reloads],
  );

  // A change on the server (reloadKey): read again, after any read under way is shown.
  const readKey = useRef(reloadKey);
  useEffect(() => {
    if (Object.is(readKey.current, reloadKey)) return;
    readKey.current = reloadKey;
    linesRef.current = 1;
    reloads.request();
  }, [reloadKey, reloads]);

  // A new search: other rows, read afresh.
  useEffect(() => {
    linesRef.current = 1;
    reloads.restart();
    if (!gridRef.current?.isDestroyed()) gridRef.current?.purgeInfiniteCache();
  }, [search, reloads]);

  const open = useCallback(
    (row: T | undefined) => {
      const href = row && rowHref?.(row);
      if (href) onNavigate?.(href);
    },
    [rowHref, onNavigate],
  );

  return (
    // A named group, not a region: a list titled like its page ("Cases" in Cases) made two landmarks of one name (axe landmark-unique, issue 30).
    <div className="data-table" role="group" aria-label={label}>
      <div className="data-table__toolbar">
        <input
          type="search"
          className="input data-table__search"
          aria-label={`Search ${label}`}
          placeholder="Search"
          value={search}
          onChange={(e) => setSearch(e.target.value)}
        />
        <span className="data-table__count" aria-live="polite">
          {countText(count, estimated)}
        </span>
      </div>
      {failed ? (
        <p role="alert" className="notice notice--negative">
          The list could not be loaded.
        </p>
      ) : null}
      <div className={scrolls ? 'data-table__grid data-table__grid--scrolls' : 'data-table__grid'}>
        <AgGridReact<T>
          theme={theme}
          rowModelType="infinite"
          datasource={datasource}
          columnDefs={columnDefs}
          cacheBlockSize={pageSize}
          maxBlocksInCache={20}
          domLayout={scrolls ? 'normal' : 'autoHeight'}
          // Issue 30: at 600 and 1024 px flexible columns cut most values ("Forensic, Unkn…"). Every column is as wide as
          // its widest drawn cell and its header, re-measured as rows arrive; spare room is shared out, and a grid wider
          // than the page scrolls sideways in its own box. A column is its content and the cell's padding, no more: at
          // 1440 px the hits list needs the room to show its Profiles.
          autoSizeStrategy={AUTO_SIZE}
          autoSizePadding={4}
          // Every column in the page, scrolled to or not (a list has a dozen at most): find-in-page and screen readers see
          // a hit's rule and Download though the grid scrolls sideways at 1280 px.
          suppressColumnVirtualisation
          getRowId={(p) => p.data.id}
          overlayNoRowsTemplate={`<span>${emptyText.replace(/[<>&]/g, '')}</span>`}
          rowClass={rowHref ? 'data-table__row--link' : undefined}
          onGridReady={(e) => {
            gridRef.current = e.api;
          }}
          onRowClicked={(e: RowClickedEvent<T>) => open(e.data)}
          onCellKeyDown={(e) => {
            if ((e.event as KeyboardEvent | undefined)?.key === 'Enter') open(e.data);
          }}
        />
      </div>
    </div>
  );
}
