// Everything that draws slides and encodes video, in one module that the
// share panel imports on the first click (SlideExport.tsx): none of it is
// needed to show the lab page, so it stays out of the first load (issue 12).

export { encodeWebm } from './encodeVideo';
export { slideCharts } from './slideCharts';
export { drawSlide } from './slideDraw';
export { clockText, scenarioCaption, slideLayout, slideLegend } from './slideLayout';
