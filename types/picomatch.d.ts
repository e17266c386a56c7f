/**
 * The part of picomatch (a dependency, which ships no types and has no @types package kept here) that the code
 * task's folder loader uses: a glob compiled to a matcher of posix paths.
 * Not responsible for anything else of picomatch's API.
 */
declare module 'picomatch' {
  interface PicomatchOptions {
    /** Let `*` and `**` match names that start with a dot. */
    dot?: boolean;
  }
  function picomatch(glob: string | string[], options?: PicomatchOptions): (path: string) => boolean;
  export default picomatch;
}
