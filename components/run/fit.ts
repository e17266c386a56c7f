// How "fit" frames the tree: room at the top for the canvas toolbar, which floats over the canvas.
import type { FitViewOptions } from '@xyflow/react';

export const FIT_PADDING: FitViewOptions['padding'] = { top: '56px', right: '24px', bottom: '24px', left: '24px' };
