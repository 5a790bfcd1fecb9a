/** Types of scripts/serve-explorer.mjs (imported by test/explorer). */
export declare const isExplorerBuild: (dir: string) => boolean
export declare const serveExplorer: (
  dir: string,
  port?: number
) => Promise<{ readonly url: string; readonly close: () => Promise<void> }>
