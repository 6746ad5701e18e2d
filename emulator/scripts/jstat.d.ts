/** The part of jstat (no bundled types) the thesis scripts use. */
declare module 'jstat' {
  const jstat: {
    jStat: {
      /** One-way ANOVA over the groups: the p-value of the F test that their means are equal. */
      anovaftest(...groups: number[][]): number;
    };
  };
  export default jstat;
}
