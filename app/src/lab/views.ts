// The page's views. The lab is the default; a second view (the guided labs)
// registers here and App renders it when selected: ?view=<id>, or ?lab=<n>
// for a guided lab.

export interface ViewDef {
  id: string;
  title: string;
}

export const VIEWS: ViewDef[] = [
  { id: 'lab', title: 'Lab' },
  // guided labs (issue 7): app/src/guided, rendered by App for ?view=labs or ?lab=<id>.
  { id: 'labs', title: 'Guided labs' },
];

export function viewFromSearch(search: string, views: ViewDef[] = VIEWS): string {
  const p = new URLSearchParams(search);
  const v = p.get('view');
  if (v && views.some((x) => x.id === v)) return v;
  if (p.has('lab') && views.some((x) => x.id === 'labs')) return 'labs';
  return 'lab';
}
