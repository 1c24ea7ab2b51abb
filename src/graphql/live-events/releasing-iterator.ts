// An async iterator that calls `release` once when it is finished, whichever way: done, failed, or
// returned by its consumer, even before its first value (a Repeater's executor, and so its own
// clean-up, never runs when the consumer returns before asking for a value).
export function releasingWhenFinished<T>(iterator: AsyncIterator<T>, release: () => void): AsyncIterableIterator<T> {
  let released = false;
  const releaseOnce = () => {
    if (released) return;
    released = true;
    release();
  };
  return {
    [Symbol.asyncIterator]() {
      return this;
    },
    async next() {
      try {
        const result = await iterator.next();
        if (result.done) releaseOnce();
        return result;
      } catch (error) {
        releaseOnce();
        throw error;
      }
    },
    async return(value?: unknown) {
      releaseOnce();
      return (await iterator.return?.(value)) ?? { done: true, value: undefined };
    },
    async throw(error?: unknown) {
      releaseOnce();
      if (iterator.throw) return iterator.throw(error);
      throw error;
    },
  };
}
